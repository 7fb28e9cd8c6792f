"""`/v1/scopes/{scope_id}/memories-by-key?key=…`: memories a caller names by its own key (service/usecases/keyed.py).
A put with a key replaces the key's record as a new revision (200), or creates it (201); get loads it (a recall);
delete removes it as `DELETE memories/{id}` does. The key travels in the query string, so any text (slashes, dots)
names it without touching the route."""

# No `from __future__ import annotations` here: FastAPI reads the annotations at run time.
from typing import Annotated, Any

from fastapi import APIRouter, Query, Response

from cognition.schemas.records import ArtifactPublic, Deleted, MemoryCreate
from service.http.deps import ActorDep, PrincipalDep, RuntimeDep
from service.http.errors import error_responses
from service.http.routes.artifacts import ScopeId
from service.usecases import keyed
from service.usecases.drafts import draft_of
from service.wire import etag, public

router = APIRouter(prefix="/v1/scopes/{scope_id}/memories-by-key", tags=["memories"])
# A key is the caller's text: 1–512 characters, no control characters (it is stored and indexed as it is).
Key = Annotated[str, Query(min_length=1, max_length=512, pattern=r"^[^\x00-\x1f\x7f]+$",
                           description="the caller's key; unique in the scope")]


@router.put("", response_model=ArtifactPublic, responses=error_responses(403, 404, 422, 503),
            name="put_memory_by_key")
async def put(scope_id: ScopeId, key: Key, body: MemoryCreate, response: Response, rt: RuntimeDep,
              principal: PrincipalDep) -> Any:
    """Save the key's record through the write pipeline: 201 when this put created it, 200 when it made a new
    revision of it (an archived one is restored first). `kind` and `source` are the first put's. ETag: the
    revision."""
    art, created = await keyed.put(rt, scope_id, key, draft_of(body), actor=principal.key_id, role=principal.role)
    response.status_code = 201 if created else 200
    response.headers["ETag"] = etag(art.revision)
    return public(art)


@router.get("", response_model=ArtifactPublic, responses=error_responses(404, 422, 503), name="get_memory_by_key")
async def get(scope_id: ScopeId, key: Key, response: Response, rt: RuntimeDep) -> Any:
    """Load the key's record (a recall), whatever its status; 404 `not_found` when the key names none."""
    art = await keyed.get(rt, scope_id, key)
    response.headers["ETag"] = etag(art.revision)
    return public(art)


@router.delete("", response_model=Deleted, responses=error_responses(404, 409, 422, 503),
               name="delete_memory_by_key")
async def delete(scope_id: ScopeId, key: Key, rt: RuntimeDep, actor: ActorDep, detach: bool = False,
                 reason: Annotated[str | None, Query(max_length=500)] = None) -> Any:
    """Delete the key's record (a tombstone, which keeps no key: the key can name a new record). 409
    `has_dependents` unless detach=true."""
    id, detached = await keyed.delete(rt, scope_id, key, detach=detach, reason=reason, actor=actor)
    return {"id": id, "detached": detached}
