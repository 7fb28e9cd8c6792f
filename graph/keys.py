"""The API-key aggregate: `(:ApiKey {id, key_hash, role, namespaces, created_at, revoked_at})`.

Only the SHA-256 of a key's secret is stored (see service/usecases/access.py for why a plain hash suffices). Every
function takes the transaction it runs in; none returns a hash."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from neo4j import AsyncManagedTransaction

from graph.driver import run_named
from graph.model import native_props

Row = dict[str, Any]


async def _all(tx: AsyncManagedTransaction, name: str, **params: Any) -> list[Row]:
    return await run_named(tx, name, **params)


async def _key(tx: AsyncManagedTransaction, name: str, **params: Any) -> Row | None:
    rows = await _all(tx, name, **params)
    return _public(rows[0]["key"]) if rows else None


def _public(key: Row) -> Row:
    out = native_props(key)
    out.pop("key_hash", None)  # the queries null it; never carried further
    out.setdefault("revoked_at", None)
    return out


async def create(tx: AsyncManagedTransaction, *, id: str, key_hash: str, role: str, namespaces: list[str],
                 now: datetime, created_by: str) -> Row:
    row = await _key(tx, "keys/create", id=id, key_hash=key_hash, role=role, namespaces=namespaces, now=now,
                     created_by=created_by)
    assert row is not None
    return row


async def by_hash(tx: AsyncManagedTransaction, key_hash: str) -> Row | None:
    return await _key(tx, "keys/by_hash", key_hash=key_hash)


async def get(tx: AsyncManagedTransaction, id: str) -> Row | None:
    return await _key(tx, "keys/get", id=id)


async def list_all(tx: AsyncManagedTransaction, *, include_revoked: bool = True) -> list[Row]:
    rows = [_public(r["key"]) for r in await _all(tx, "keys/list")]
    return rows if include_revoked else [r for r in rows if r["revoked_at"] is None]


async def revoke(tx: AsyncManagedTransaction, *, id: str, now: datetime, revoked_by: str) -> Row | None:
    return await _key(tx, "keys/revoke", id=id, now=now, revoked_by=revoked_by)


async def install_bootstrap(tx: AsyncManagedTransaction, *, id: str, key_hash: str, now: datetime) -> Row:
    row = await _key(tx, "keys/install_bootstrap", id=id, key_hash=key_hash, now=now)
    assert row is not None
    return row


async def generate_first(tx: AsyncManagedTransaction, *, id: str, key_hash: str, now: datetime) -> Row | None:
    """The created key, or None when the store already had (or once had) keys."""
    return await _key(tx, "keys/generate_first", id=id, key_hash=key_hash, now=now)


# Path parameters that name something living in one namespace, and the query answering which.
NAMESPACE_OF = {"scope_id": "keys/scope_namespace", "pass_id": "keys/pass_namespace",
                "webhook_id": "keys/webhook_namespace"}


async def namespace_of(tx: AsyncManagedTransaction, param: str, id: str) -> str | None:
    """The namespace of the scope / pass named by a path parameter (see NAMESPACE_OF); None if none."""
    rows = await _all(tx, NAMESPACE_OF[param], id=id)
    return str(rows[0]["namespace"]) if rows and rows[0]["namespace"] is not None else None


async def readiness(tx: AsyncManagedTransaction, *, triggers: bool = True) -> Row:
    """The applied schema version and, with `triggers`, the APOC triggers live (a server without APOC triggers
    refuses that part)."""
    rows = await _all(tx, "keys/readiness" if triggers else "keys/schema_version")
    return rows[0] if rows else {"version": None, "live": []}
