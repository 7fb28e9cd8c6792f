"""Scope use cases, shared by the HTTP API and Python callers."""

from __future__ import annotations

from typing import Any

from graph import scopes
from graph.driver import Graph
from graph.errors import CognitionError, Conflict, NotFound
from service.deps import utcnow


async def create_scope(graph: Graph, *, namespace: str, cognitive_owner: str, name: str, actor: str) -> dict[str, Any]:
    try:
        return await graph.write(scopes.create, namespace=namespace, cognitive_owner=cognitive_owner, name=name,
                                 actor=actor, now=utcnow())
    except CognitionError as exc:
        if exc.code == "already_exists":
            raise Conflict(f"a scope named {name!r} already exists for {namespace}/{cognitive_owner}",
                           code="scope_exists") from exc
        raise


async def get_scope(graph: Graph, scope_id: str) -> dict[str, Any]:
    scope = await graph.read(scopes.get, scope_id)
    if scope is None:
        raise NotFound(f"no scope {scope_id}", code="scope_not_found")
    return scope


async def delete_scope(graph: Graph, scope_id: str, *, actor: str) -> int:
    deleted = await scopes.delete(graph, scope_id, actor=actor, now=utcnow())
    if deleted is None:
        raise NotFound(f"no scope {scope_id}", code="scope_not_found")
    return deleted
