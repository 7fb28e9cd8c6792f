"""`/v1/digest/passes`: run a digest pass over one partition and read its decisions."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Response
from pydantic import BaseModel, ConfigDict, Field

from digest.passes import PassRequest, get_pass, run_pass
from service import observability
from service.api.schemas import Instant
from service.api.scopes import Ident
from service.deps import ActorDep, GraphDep
from service.errors import error_responses

router = APIRouter(prefix="/v1/digest", tags=["digest"])


class DigestPassCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    namespace: Ident
    cognitive_owner: Ident
    phases: Annotated[list[Literal["archive", "remove"]], Field(min_length=1, max_length=2)]
    dry_run: bool = False
    as_of: Instant | None = Field(None, description="dry runs only: evaluate the time-based rules at this instant")


class DecisionPublic(BaseModel):
    id: str
    action: str
    rule: str
    rules: list[str] = []
    artifact_id: str
    scope_id: str
    family: str | None = None
    cites: list[str] = []
    path: list[str] = []


class PassPublic(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str | None
    kind: str
    phase: str
    namespace: str
    cognitive_owner: str
    state: str
    dry_run: bool = False


class PassOutcome(BaseModel):
    pass_: PassPublic = Field(alias="pass")
    decisions: list[DecisionPublic]
    model_config = ConfigDict(populate_by_name=True)


@router.post("/passes", status_code=201, response_model=PassOutcome, response_model_by_alias=True,
             responses=error_responses(409, 422, 503))
async def create_pass(body: DigestPassCreate, graph: GraphDep, actor: ActorDep, response: Response) -> Any:
    """Run one digest phase (`["archive"]` or `["remove"]`, never both) over one partition. Answers with the
    pass and its decisions; `dry_run` returns the decisions without applying them. 409 `digest_in_progress`
    while another pass holds the partition."""
    out = await run_pass(graph, PassRequest(namespace=body.namespace, cognitive_owner=body.cognitive_owner,
                                            phases=body.phases, actor=actor, dry_run=body.dry_run,
                                            as_of=body.as_of))
    observability.record_pass(out)  # decisions by rule, for /metrics
    if body.dry_run:
        response.status_code = 200
    return out


@router.get("/passes/{pass_id}", response_model=PassOutcome, response_model_by_alias=True,
            responses=error_responses(404, 503))
async def read_pass(pass_id: Annotated[str, Path(max_length=64, pattern=r"^[A-Za-z0-9-]+$")], graph: GraphDep) -> Any:
    return await get_pass(graph, pass_id)
