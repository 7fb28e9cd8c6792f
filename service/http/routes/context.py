"""`POST /v1/scopes/{scope_id}/context`: automatic injection (service/usecases/context.py defines the arms)."""

# No `from __future__ import annotations`: FastAPI reads these annotations at run time.
from typing import Annotated, Any

from fastapi import APIRouter, Path

from cognition.schemas.context import ContextRequest, ContextResponse
from service.http.deps import RuntimeDep
from service.http.errors import error_responses
from service.usecases import context as use
from service.usecases.timeview import TimeView
from service.wire import public

ScopeId = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9-]+$")]
router = APIRouter(prefix="/v1/scopes/{scope_id}", tags=["context"])


@router.post("/context", response_model=ContextResponse, responses=error_responses(404, 422, 503))
async def context(scope_id: ScopeId, body: ContextRequest, rt: RuntimeDep) -> Any:
    """The arms of one recall surface, assembled in one query. Every arm returns only rows of this scope that
    pass RecallQualityOK (active, not stale, valid at `as_of` — now by default —, not working state); returned rows
    count as recalls (recall_count + 1, accessed_at = now). With `known_at`, the arms are assembled from the store
    as it was then, and nothing is counted."""
    ctx = await use.assemble(rt, scope_id, surface=body.surface, query=body.query,
                             limits={str(k): v for k, v in body.limits.items()},
                             view=TimeView(as_of=body.as_of, known_at=body.known_at, now=body.now))
    return {"arms": {arm: [public(a) for a in items] for arm, items in ctx.arms.items()},
            "view": ctx.view.wire() if ctx.view else None}
