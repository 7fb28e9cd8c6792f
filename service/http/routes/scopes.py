"""`/v1/scopes`: create, read and delete a scope."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from cognition.schemas.records import WritePolicy
from cognition.schemas.scopes import IDENT_PATTERN, ScopeCreate, ScopeDeleted, ScopePage, ScopePublic
from graph.model import native
from service.http.deps import ActorDep, RuntimeDep
from service.http.errors import error_responses
from service.usecases import approvals
from service.usecases import scopes as use
from service.wire import decode_cursor, encode_cursor, invalid_cursor

router = APIRouter(prefix="/v1/scopes", tags=["scopes"])

ScopeId = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9-]+$")]


def _public(row: dict[str, object]) -> ScopePublic:
    return ScopePublic.model_validate(native(row))


@router.post("", status_code=201, response_model=ScopePublic, responses=error_responses(409, 422, 503))
async def create_scope(body: ScopeCreate, rt: RuntimeDep, actor: ActorDep) -> ScopePublic:
    """Create a scope; its agent kernel and world kernel are created in the same transaction."""
    return _public(await use.create_scope(rt, namespace=body.namespace, cognitive_owner=body.cognitive_owner,
                                          name=body.name, actor=actor))


Ident = Annotated[str, Query(min_length=1, max_length=128, pattern=IDENT_PATTERN)]


@router.get("", response_model=ScopePage, responses=error_responses(404, 422, 503))
async def list_scopes(namespace: Ident, cognitive_owner: Ident, rt: RuntimeDep,
                      name_prefix: Annotated[str, Query(max_length=200)] = "",
                      cursor: Annotated[str | None, Query(max_length=500)] = None,
                      limit: Annotated[int, Query(ge=1, le=500)] = 100) -> ScopePage:
    """The scopes of one partition whose name starts with `name_prefix`, in name order (`next_cursor` for the next
    page); each says whether it holds a keyed record (active or pending)."""
    after = None
    if cursor:
        position = decode_cursor(cursor)
        if not isinstance(position, str):
            raise invalid_cursor()
        after = position
    rows, more = await use.list_partition(rt, namespace=namespace, cognitive_owner=cognitive_owner,
                                          name_prefix=name_prefix, after_name=after, limit=limit)
    return ScopePage.model_validate({"items": rows,
                                     "next_cursor": encode_cursor(rows[-1]["name"]) if more else None})


@router.get("/{scope_id}", response_model=ScopePublic, responses=error_responses(404, 503))
async def get_scope(scope_id: ScopeId, rt: RuntimeDep) -> ScopePublic:
    return _public(await use.get_scope(rt, scope_id))


@router.delete("/{scope_id}", response_model=ScopeDeleted, responses=error_responses(404, 503))
async def delete_scope(scope_id: ScopeId, rt: RuntimeDep, actor: ActorDep) -> ScopeDeleted:
    """Delete the scope and everything it owns (in batches); records a `scope_delete` event."""
    deleted = await use.delete_scope(rt, scope_id, actor=actor)
    return ScopeDeleted(id=scope_id, deleted=deleted)


@router.get("/{scope_id}/write-policy", response_model=WritePolicy, responses=error_responses(404, 503))
async def get_write_policy(scope_id: ScopeId, rt: RuntimeDep) -> WritePolicy:
    """The scope's write-approval policy (`auto` for everything unless set)."""
    return WritePolicy.model_validate(await approvals.get_write_policy(rt, scope_id))


@router.put("/{scope_id}/write-policy", response_model=WritePolicy, responses=error_responses(404, 422, 503))
async def put_write_policy(scope_id: ScopeId, body: WritePolicy, rt: RuntimeDep, actor: ActorDep) -> WritePolicy:
    """Replace the scope's write-approval policy (an event)."""
    await approvals.set_write_policy(rt, scope_id, body.model_dump(mode="json"), actor=actor)
    return body
