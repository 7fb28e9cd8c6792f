"""Webhooks: registered endpoints with their cursor in a namespace's feed, their leases and their delivery log.
Every function takes the transaction it runs in."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from neo4j import AsyncManagedTransaction

from graph.driver import run_named
from graph.model import native

Row = dict[str, Any]


def _hook(row: Row | None) -> Row | None:
    return None if row is None else native({k: v for k, v in row.items() if v is not None})


async def create(tx: AsyncManagedTransaction, **params: Any) -> Row:
    rows = await run_named(tx, "webhooks/create", **params)
    out = _hook(rows[0]["webhook"])
    assert out is not None
    return out


async def list_(tx: AsyncManagedTransaction, *, namespaces: list[str] | None) -> list[Row]:
    rows = await run_named(tx, "webhooks/list", namespaces=namespaces)
    return [h for r in rows if (h := _hook(r["webhook"])) is not None]


async def get(tx: AsyncManagedTransaction, *, id: str) -> Row | None:
    rows = await run_named(tx, "webhooks/get", id=id)
    return _hook(rows[0]["webhook"]) if rows else None


async def delete(tx: AsyncManagedTransaction, *, id: str) -> Row | None:
    rows = await run_named(tx, "webhooks/delete", id=id)
    return _hook(rows[0]["webhook"]) if rows else None


async def replay(tx: AsyncManagedTransaction, *, id: str, after: int, now: datetime) -> Row | None:
    rows = await run_named(tx, "webhooks/replay", id=id, after=after, now=now)
    return _hook(rows[0]["webhook"]) if rows else None


async def claim(tx: AsyncManagedTransaction, *, now: datetime, until: datetime, holder: str,
                limit: int) -> list[Row]:
    """The due webhooks this worker now leases (with their secrets: the worker signs with them)."""
    rows = await run_named(tx, "webhooks/claim", now=now, until=until, holder=holder, limit=limit)
    return [h for r in rows if (h := _hook(r["webhook"])) is not None]


async def settle(tx: AsyncManagedTransaction, **params: Any) -> bool:
    rows = await run_named(tx, "webhooks/settle", **params)
    return bool(rows and rows[0]["mine"])


async def deliveries(tx: AsyncManagedTransaction, *, id: str, limit: int) -> list[Row]:
    rows = await run_named(tx, "webhooks/deliveries", id=id, limit=limit)
    return [native(r["delivery"]) for r in rows]
