"""`/v1/scopes`: create, read and delete a scope."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Path
from pydantic import BaseModel, ConfigDict, Field

from graph.model import native
from service import approvals
from service import scopes as use
from service.api.schemas import WritePolicy
from service.deps import ActorDep, GraphDep
from service.errors import error_responses

router = APIRouter(prefix="/v1/scopes", tags=["scopes"])

# Namespaces and owners become partition keys and key grants: a conservative alphabet.
Ident = Annotated[str, Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:@-]*$")]
ScopeId = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9-]+$")]


class ScopeCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    namespace: Ident
    cognitive_owner: Ident
    name: Annotated[str, Field(min_length=1, max_length=200, pattern=r"^[^\x00-\x1f\x7f]+$")]


class ScopePublic(BaseModel):
    id: str
    namespace: str
    cognitive_owner: str
    name: str
    created_at: datetime
    agent_kernel_id: str
    world_kernel_id: str


class ScopeDeleted(BaseModel):
    id: str
    deleted: int = Field(description="artifacts, tombstones and revisions removed with the scope")


def _public(row: dict[str, object]) -> ScopePublic:
    return ScopePublic.model_validate(native(row))


@router.post("", status_code=201, response_model=ScopePublic, responses=error_responses(409, 422, 503))
async def create_scope(body: ScopeCreate, graph: GraphDep, actor: ActorDep) -> ScopePublic:
    """Create a scope; its agent kernel and world kernel are created in the same transaction."""
    return _public(await use.create_scope(graph, namespace=body.namespace, cognitive_owner=body.cognitive_owner,
                                          name=body.name, actor=actor))


@router.get("/{scope_id}", response_model=ScopePublic, responses=error_responses(404, 503))
async def get_scope(scope_id: ScopeId, graph: GraphDep) -> ScopePublic:
    return _public(await use.get_scope(graph, scope_id))


@router.delete("/{scope_id}", response_model=ScopeDeleted, responses=error_responses(404, 503))
async def delete_scope(scope_id: ScopeId, graph: GraphDep, actor: ActorDep) -> ScopeDeleted:
    """Delete the scope and everything it owns (in batches); records a `scope_delete` event."""
    deleted = await use.delete_scope(graph, scope_id, actor=actor)
    return ScopeDeleted(id=scope_id, deleted=deleted)


@router.get("/{scope_id}/write-policy", response_model=WritePolicy, responses=error_responses(404, 503))
async def get_write_policy(scope_id: ScopeId, graph: GraphDep) -> WritePolicy:
    """The scope's write-approval policy (`auto` for everything unless set)."""
    return WritePolicy.model_validate(await approvals.get_write_policy(graph, scope_id))


@router.put("/{scope_id}/write-policy", response_model=WritePolicy, responses=error_responses(404, 422, 503))
async def put_write_policy(scope_id: ScopeId, body: WritePolicy, graph: GraphDep, actor: ActorDep) -> WritePolicy:
    """Replace the scope's write-approval policy (an event)."""
    await approvals.set_write_policy(graph, scope_id, body.model_dump(mode="json"), actor=actor)
    return body
