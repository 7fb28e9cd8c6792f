"""`/v1/digest/passes`: run a digest pass over one partition and read its decisions."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Response

from cognition.schemas.digest import DigestPassCreate, PassOutcome
from service.http.deps import ActorDep, RuntimeDep
from service.http.errors import error_responses
from service.usecases import passes

router = APIRouter(prefix="/v1/digest", tags=["digest"])


@router.post("/passes", status_code=201, response_model=PassOutcome, response_model_by_alias=True,
             responses=error_responses(409, 422, 503))
async def create_pass(body: DigestPassCreate, rt: RuntimeDep, actor: ActorDep, response: Response) -> Any:
    """Run one digest phase (`["archive"]` or `["remove"]`, never both) over one partition. Answers with the
    pass and its decisions; `dry_run` returns the decisions without applying them. 409 `digest_in_progress`
    while another pass holds the partition."""
    out = await passes.run_digest(rt, namespace=body.namespace, cognitive_owner=body.cognitive_owner,
                                  phases=body.phases, actor=actor, dry_run=body.dry_run, as_of=body.as_of)
    if body.dry_run:
        response.status_code = 200
    return out


@router.get("/passes/{pass_id}", response_model=PassOutcome, response_model_by_alias=True,
            responses=error_responses(404, 503))
async def read_pass(pass_id: Annotated[str, Path(max_length=64, pattern=r"^[A-Za-z0-9-]+$")], rt: RuntimeDep) -> Any:
    return await passes.get_pass(rt, pass_id)
