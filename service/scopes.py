"""Scope use cases, shared by the HTTP API and Python callers."""

from __future__ import annotations

import base64
import json
from typing import Any

from graph import scopes
from graph.driver import Graph
from graph.errors import CognitionError, Conflict, Invalid, NotFound
from graph.model import native
from service.auth import ALL_NAMESPACES, Principal
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


async def list_visible(graph: Graph, principal: Principal, *, cursor: str | None,
                       limit: int) -> tuple[list[dict[str, Any]], str | None]:
    """The scopes the key's namespaces hold, one page; (rows, the next page's cursor or None)."""
    after = _decode_cursor(cursor) if cursor else None
    namespaces = None if ALL_NAMESPACES in principal.namespaces else list(principal.namespaces)
    rows = await graph.read(scopes.list_visible, namespaces=namespaces, after=after, limit=limit + 1)
    page = [native(r) for r in rows[:limit]]
    nxt = _encode_cursor(page[-1]["namespace"], page[-1]["id"]) if len(rows) > limit else None
    return page, nxt


def _encode_cursor(namespace: str, id: str) -> str:
    return base64.urlsafe_b64encode(json.dumps([namespace, id]).encode()).decode().rstrip("=")


def _decode_cursor(cursor: str) -> tuple[str, str]:
    try:
        namespace, id = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        return str(namespace), str(id)
    except Exception as exc:
        raise Invalid("cursor is not one this service issued", code="invalid_cursor",
                      details={"field": "cursor"}) from exc
