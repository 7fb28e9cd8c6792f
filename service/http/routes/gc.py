"""`/v1/gc/runs`: a GC pass over one partition (TTL and capacity eviction, through archive → remove)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response

from cognition.schemas.digest import GCRunCreate, PassOutcome
from service.http.deps import ActorDep, RuntimeDep
from service.http.errors import error_responses
from service.usecases import passes

router = APIRouter(prefix="/v1/gc", tags=["gc"])


@router.post("/runs", status_code=201, response_model=PassOutcome, response_model_by_alias=True,
             responses=error_responses(409, 422, 503))
async def create_run(body: GCRunCreate, rt: RuntimeDep, actor: ActorDep, response: Response) -> Any:
    """One GC pass over one partition: `["archive"]` (default: TTL batch + capacity eviction) or `["remove"]`
    (what earlier finished GC passes archived). Exempt kinds are never evicted."""
    out = await passes.run_gc(rt, namespace=body.namespace, cognitive_owner=body.cognitive_owner, actor=actor,
                              phases=body.phases, dry_run=body.dry_run, as_of=body.as_of,
                              max_entries=body.max_entries)
    if body.dry_run:
        response.status_code = 200
    return out
