"""`POST /v1/scopes/{scope_id}/context`: automatic injection (service/context.py defines the arms)."""

# No `from __future__ import annotations`: FastAPI reads these annotations at run time.
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path
from pydantic import BaseModel, ConfigDict, Field

from service import context as use
from service.api.artifacts import public
from service.api.schemas import ArtifactPublic
from service.deps import GraphDep
from service.errors import error_responses

ScopeId = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9-]+$")]
ArmName = Literal["constraints", "instructions", "environment", "preferences", "recent_episodes",
                  "relevant_memories", "knowledge", "skills", "profile"]
Limit = Annotated[int, Field(ge=0, le=use.MAX_LIMIT)]


class ContextRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    surface: Literal["eager", "lazy", "cold_start", "all"] = Field(
        description="eager: constraints, instructions, environment, preferences, recent_episodes; "
                    "lazy: relevant_memories, knowledge, skills; cold_start: profile; all: the nine")
    query: Annotated[str, Field(max_length=1000)] | None = Field(
        None, description="drives relevant_memories (hybrid full-text + vector ranking); "
                          "without it that arm is empty")
    limits: dict[ArmName, Limit] = Field(
        default_factory=dict, description=f"per-arm item limits; defaults {use.DEFAULT_LIMITS}")


class ContextResponse(BaseModel):
    arms: dict[str, list[ArtifactPublic]] = Field(
        description="each arm of the surface, in its order; every item passed RecallQualityOK and counted as "
                    "a recall")


router = APIRouter(prefix="/v1/scopes/{scope_id}", tags=["context"])


@router.post("/context", response_model=ContextResponse, responses=error_responses(404, 422, 503))
async def context(scope_id: ScopeId, body: ContextRequest, graph: GraphDep) -> Any:
    """The arms of one recall surface, assembled in one query. Every arm returns only rows of this scope that
    pass RecallQualityOK (active, not stale, not conflicted, not working state); returned rows count as
    recalls (recall_count + 1, accessed_at = now)."""
    ctx = await use.assemble(graph, scope_id, surface=body.surface, query=body.query,
                             limits={str(k): v for k, v in body.limits.items()})
    return {"arms": {arm: [public(a) for a in items] for arm, items in ctx.arms.items()}}
