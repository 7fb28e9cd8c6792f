"""The scope aggregate: a scope node and its two kernels, created together and deleted together."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from neo4j import AsyncManagedTransaction

import cypher
from graph.driver import Graph

DELETE_BATCH = 5000


def new_id() -> str:
    # Hex, without hyphens: one token for the full-text analyzer, so a scope filter is exact inside Lucene.
    return uuid.uuid4().hex


def kernel_properties(now: datetime) -> dict[str, Any]:
    return {"status": "active", "content": "", "revision": 1, "created_at": now, "updated_at": now,
            "accessed_at": now, "occurred_at": now, "recall_count": 0, "trust": 1.0, "stale": False,
            "conflicted": False, "tags": []}


async def create(tx: AsyncManagedTransaction, *, namespace: str, cognitive_owner: str, name: str,
                 actor: str, now: datetime) -> dict[str, Any]:
    result = await tx.run(cypher.load("scope/create"), id=new_id(), namespace=namespace,
                          cognitive_owner=cognitive_owner, name=name, now=now, kernel=kernel_properties(now),
                          agent_kernel_id=new_id(), world_kernel_id=new_id(), event_id=new_id(), actor=actor)
    record = await result.single(strict=True)
    return dict(record["scope"])


async def get(tx: AsyncManagedTransaction, scope_id: str) -> dict[str, Any] | None:
    result = await tx.run(cypher.load("scope/get"), id=scope_id)
    record = await result.single()
    return dict(record["scope"]) if record else None


async def delete(graph: Graph, scope_id: str, *, actor: str, now: datetime, batch: int = DELETE_BATCH) -> int | None:
    """Delete a scope and all it owns; None when there is no such scope. Three steps, each safe to re-run:
    hide the scope, delete its contents in batches, then the kernels + scope node + event in one transaction."""
    if not await graph.query(cypher.load("scope/mark_deleting"), id=scope_id):
        return None
    rows = await graph.autocommit(cypher.load("scope/delete_contents"), id=scope_id, batch=batch)
    deleted = int(rows[0]["deleted"]) if rows else 0
    done = await graph.query(cypher.load("scope/delete_finish"), id=scope_id, now=now, event_id=new_id(),
                             actor=actor, deleted=deleted)
    return int(done[0]["deleted"]) if done else deleted


async def list_visible(tx: AsyncManagedTransaction, *, namespaces: list[str] | None, after: tuple[str, str] | None,
                       limit: int) -> list[dict[str, Any]]:
    """One page of the scopes in `namespaces` (None = every namespace), ordered by (namespace, id)."""
    result = await tx.run(cypher.load("scope/list_visible"), all=namespaces is None, namespaces=namespaces or [],
                          after_namespace=after[0] if after else None, after_id=after[1] if after else None,
                          limit=limit)
    return [dict(r["scope"]) async for r in result]


async def write_policy(tx: AsyncManagedTransaction, *, scope_id: str) -> tuple[bool, str | None]:
    """(whether the scope exists, its write policy as stored: JSON text, or None when never set)."""
    result = await tx.run(cypher.load("scope/write_policy_get"), id=scope_id)
    record = await result.single()
    return (record is not None, record["policy"] if record else None)


async def set_write_policy(tx: AsyncManagedTransaction, *, scope_id: str, policy: str, now: datetime, actor: str,
                           event_id: str) -> bool:
    """Replace the scope's write policy (JSON text) and record the event; False when there is no such scope."""
    result = await tx.run(cypher.load("scope/write_policy_set"), id=scope_id, policy=policy, now=now, actor=actor,
                          event_id=event_id)
    return await result.single() is not None


async def list_partition(tx: AsyncManagedTransaction, *, namespace: str, owner: str, name_prefix: str,
                         after_name: str | None, limit: int) -> list[dict[str, Any]]:
    """One page of a partition's scopes whose name starts with `name_prefix`, in name order, each with `keyed`."""
    result = await tx.run(cypher.load("scope/list_partition"), namespace=namespace, owner=owner,
                          name_prefix=name_prefix, after_name=after_name, limit=limit)
    return [dict(r["scope"]) async for r in result]
