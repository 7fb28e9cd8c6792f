"""`/v1/gc/runs`: a GC pass over one partition (TTL and capacity eviction, through archive → remove)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from digest.gc import GCConfig, run_gc
from service import observability
from service.api.digest import PassOutcome
from service.api.schemas import Instant
from service.api.scopes import Ident
from service.deps import ActorDep, GraphDep
from service.errors import error_responses
from service.settings import Settings

router = APIRouter(prefix="/v1/gc", tags=["gc"])


class GCRunCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    namespace: Ident
    cognitive_owner: Ident
    phases: Annotated[list[Literal["archive", "remove"]], Field(min_length=1, max_length=2)] = ["archive"]
    max_entries: Annotated[int, Field(ge=0, le=10_000_000)] | None = Field(
        None, description="override the configured per-partition maximum for this run")
    dry_run: bool = False
    as_of: Instant | None = Field(None, description="dry runs only: evaluate TTLs at this instant")


@router.post("/runs", status_code=201, response_model=PassOutcome, response_model_by_alias=True,
             responses=error_responses(409, 422, 503))
async def create_run(body: GCRunCreate, graph: GraphDep, actor: ActorDep, response: Response,
                     request: Request) -> Any:
    """One GC pass over one partition: `["archive"]` (default: TTL batch + capacity eviction) or `["remove"]`
    (what earlier finished GC passes archived). Exempt kinds are never evicted."""
    out = await run_gc(graph, namespace=body.namespace, cognitive_owner=body.cognitive_owner, actor=actor,
                       config=gc_config(request.app.state.settings), phases=body.phases, dry_run=body.dry_run,
                       as_of=body.as_of,
                       max_entries=body.max_entries)
    observability.record_pass(out)  # decisions by rule, for /metrics
    if body.dry_run:
        response.status_code = 200
    return out


def gc_config(s: Settings) -> GCConfig:
    """The GC configuration from the settings (API and CLI alike)."""
    return GCConfig(max_entries=s.gc_max_entries, ttl_batch=s.gc_ttl_batch)
