"""Scope use cases, shared by the HTTP API, the MCP tools and Python callers."""

from __future__ import annotations

from typing import Any

from graph import scopes
from graph.errors import CognitionError, Conflict, NotFound
from graph.model import native
from service.usecases.access import ALL_NAMESPACES, Principal
from service.usecases.runtime import Runtime


async def create_scope(rt: Runtime, *, namespace: str, cognitive_owner: str, name: str, actor: str) -> dict[str, Any]:
    try:
        return await rt.graph.write(scopes.create, namespace=namespace, cognitive_owner=cognitive_owner, name=name,
                                    actor=actor, now=rt.clock())
    except CognitionError as exc:
        if exc.code == "already_exists":
            raise Conflict(f"a scope named {name!r} already exists for {namespace}/{cognitive_owner}",
                           code="scope_exists") from exc
        raise


async def get_scope(rt: Runtime, scope_id: str) -> dict[str, Any]:
    scope = await rt.graph.read(scopes.get, scope_id)
    if scope is None:
        raise NotFound(f"no scope {scope_id}", code="scope_not_found")
    return scope


async def delete_scope(rt: Runtime, scope_id: str, *, actor: str) -> int:
    deleted = await scopes.delete(rt.graph, scope_id, actor=actor, now=rt.clock())
    if deleted is None:
        raise NotFound(f"no scope {scope_id}", code="scope_not_found")
    return deleted


async def list_visible(rt: Runtime, principal: Principal, *, after: tuple[str, str] | None,
                       limit: int) -> tuple[list[dict[str, Any]], bool]:
    """The scopes the key's namespaces hold, one page in (namespace, id) order after the position `after`; and
    whether more follow."""
    namespaces = None if ALL_NAMESPACES in principal.namespaces else list(principal.namespaces)
    rows = await rt.graph.read(scopes.list_visible, namespaces=namespaces, after=after, limit=limit + 1)
    return [native(r) for r in rows[:limit]], len(rows) > limit


async def list_partition(rt: Runtime, *, namespace: str, cognitive_owner: str, name_prefix: str,
                         after_name: str | None, limit: int) -> tuple[list[dict[str, Any]], bool]:
    """A partition's scopes whose name starts with `name_prefix`, one page in name order after `after_name`; and
    whether more follow."""
    rows = await rt.graph.read(scopes.list_partition, namespace=namespace, owner=cognitive_owner,
                               name_prefix=name_prefix, after_name=after_name, limit=limit + 1)
    return [native(r) for r in rows[:limit]], len(rows) > limit
