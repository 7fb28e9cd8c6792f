"""The artifact aggregate: an artifact node, its revisions, its events, its tombstone. Every function takes
the transaction it runs in, so a use case composes them into one unit of work."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from neo4j import AsyncManagedTransaction

from graph.driver import run_named
from graph.model import EdgeType, artifact_row, native, native_props

Row = dict[str, Any]


async def _all(tx: AsyncManagedTransaction, name: str, **params: Any) -> list[Row]:
    return await run_named(tx, name, **params)


async def _one(tx: AsyncManagedTransaction, name: str, **params: Any) -> Row | None:
    rows = await _all(tx, name, **params)
    return rows[0] if rows else None


_SAVE_TIMES = ("created_at", "updated_at", "accessed_at")
_RECORD_TIMES = ("occurred_at", "valid_from", "valid_until")  # the caller's times (docs/time.md)


def wire_row(row: Row) -> Row:
    """A save row as `save.cypher` takes it: a new artifact's three times, equal at a save, travel once as ISO-8601
    text (`at`) that the query makes a DateTime — the same value the driver would send (UTC offset, microseconds),
    without its pure-Python DateTime packing, which cost a save ~0.2 ms per value; its occurred_at, valid_from and
    valid_until travel as text too (`times`, null where none)."""
    props = row["props"]
    at = props["created_at"]
    if any(props[k] != at for k in _SAVE_TIMES):
        raise ValueError("a saved artifact's created_at, updated_at and accessed_at are one time")
    times = {k: (props[k].isoformat() if props.get(k) is not None else None) for k in _RECORD_TIMES}
    return {**row, "props": {k: v for k, v in props.items() if k not in _SAVE_TIMES and k not in _RECORD_TIMES},
            "at": at.isoformat(), "times": times}


async def save(tx: AsyncManagedTransaction, *, scope_id: str, rows: list[Row], now: datetime,
               actor: str) -> tuple[list[str], list[Row]] | None:
    """(denied family/kind list, [{id, status, linked, relations}] per saved row); None when the scope does not
    exist (or is being deleted)."""
    rec = await _one(tx, "artifact/save", scope_id=scope_id, rows=[wire_row(r) for r in rows], now=now.isoformat(),
                     actor=actor)
    if rec is None:
        return None
    return list(rec["denied"]), list(rec["saved"])


async def supersede(tx: AsyncManagedTransaction, *, scope_id: str, by: str, ids: list[str], now: datetime,
                    actor: str) -> list[Row]:
    """[{id, found, ordered}] for each of `ids` that `by` supersedes (cypher/artifact/supersede)."""
    return await _all(tx, "artifact/supersede", scope_id=scope_id, by=by, ids=ids, now=now, actor=actor)


async def claim_idempotency(tx: AsyncManagedTransaction, *, key_id: str, request_hash: str, ids: list[str],
                            now: datetime) -> Row:
    rec = await _one(tx, "artifact/idempotency_claim", key_id=key_id, hash=request_hash, ids=ids, now=now)
    assert rec is not None
    return rec


async def get(tx: AsyncManagedTransaction, *, scope_id: str, id: str) -> Row:
    rec = await _one(tx, "artifact/get", scope_id=scope_id, id=id)
    assert rec is not None
    return rec


async def get_many(tx: AsyncManagedTransaction, *, scope_id: str, ids: Sequence[str]) -> list[Row]:
    if not ids:
        return []
    return [artifact_row(r["artifact"]) for r in await _all(tx, "artifact/get_many", scope_id=scope_id, ids=list(ids))]


async def load(tx: AsyncManagedTransaction, *, scope_id: str, id: str, families: list[str], now: datetime) -> Row:
    rec = await _one(tx, "artifact/load", scope_id=scope_id, id=id, families=families, now=now)
    assert rec is not None
    return rec


async def scope_at(tx: AsyncManagedTransaction, *, scope_id: str, families: list[str], known_at: datetime) -> Row:
    """{rows, erased}: the scope's records of `families` as the store held them at `known_at`
    (cypher/artifact/scope_at)."""
    rec = await _one(tx, "artifact/scope_at", scope_id=scope_id, families=families, known_at=known_at)
    return rec or {"rows": [], "erased": 0}


async def load_at(tx: AsyncManagedTransaction, *, scope_id: str, id: str, families: list[str],
                  known_at: datetime) -> Row:
    """{artifact, erased}: one record as the store held it at `known_at` (cypher/artifact/load_at)."""
    rec = await _one(tx, "artifact/load_at", scope_id=scope_id, id=id, families=families, known_at=known_at)
    assert rec is not None
    return rec


async def list_page(tx: AsyncManagedTransaction, *, order: str = "created", **params: Any) -> list[Row]:
    """One page of a list, in created_at or occurred_at order (`order`: "created" or "occurred")."""
    name = "artifact/list_occurred" if order == "occurred" else "artifact/list"
    return [artifact_row(r["artifact"]) for r in await _all(tx, name, **params)]


async def update(tx: AsyncManagedTransaction, **params: Any) -> Row:
    rec = await _one(tx, "artifact/update", **params)
    assert rec is not None
    return rec


async def delete(tx: AsyncManagedTransaction, **params: Any) -> Row:
    rec = await _one(tx, "artifact/delete", **params)
    assert rec is not None
    return rec


async def history(tx: AsyncManagedTransaction, *, scope_id: str, id: str, families: list[str],
                  known_at: datetime | None = None) -> list[Row]:
    rows = await _all(tx, "artifact/history", scope_id=scope_id, id=id, families=families, known_at=known_at)
    return [native_props(r["item"]) for r in rows]


async def view(tx: AsyncManagedTransaction, *, name: str, scope_id: str, id: str, families: list[str]) -> Row | None:
    rec = await _one(tx, f"views/{name}", scope_id=scope_id, id=id, families=families)
    return native(rec["view"]) if rec else None


async def create_edge(tx: AsyncManagedTransaction, *, scope_id: str, type: EdgeType, from_id: str, to_id: str,
                      relation: str | None) -> Row | None:
    if type is EdgeType.RELATES_TO:
        return await _one(tx, "artifact/relates_create", scope_id=scope_id, from_id=from_id, to_id=to_id,
                          relation=relation)
    # `type` comes from the EdgeType allow-list, never from raw input.
    return await _one(tx, "artifact/edge_create", scope_id=scope_id, from_id=from_id, to_id=to_id, type=type.value)


async def delete_edge(tx: AsyncManagedTransaction, *, scope_id: str, type: EdgeType, from_id: str, to_id: str,
                      relation: str | None) -> int:
    rec = await _one(tx, "artifact/edge_delete", scope_id=scope_id, from_id=from_id, to_id=to_id,
                     type=type.value, relation=relation)
    return int(rec["deleted"]) if rec else 0


async def clear_working_state(tx: AsyncManagedTransaction, **params: Any) -> int | None:
    rec = await _one(tx, "artifact/clear_working_state", **params)
    return int(rec["cleared"]) if rec else None


async def record_refusal(tx: AsyncManagedTransaction, **params: Any) -> None:
    await _all(tx, "artifact/refuse_audit", **params)


async def decide_pending(tx: AsyncManagedTransaction, decision: str, **params: Any) -> Row:
    """Approve or reject a pending record (`decision` is "approve" or "reject")."""
    assert decision in ("approve", "reject")
    rec = await _one(tx, f"artifact/{decision}", **params)
    assert rec is not None
    if rec.get("approved") is not None:
        rec["approved"] = native_props(rec["approved"])
    return rec


async def endorse(tx: AsyncManagedTransaction, **params: Any) -> Row:
    """An operator's approval of an active record from an untrusted source (cypher/artifact/endorse)."""
    rec = await _one(tx, "artifact/endorse", **params)
    assert rec is not None
    if rec.get("approved") is not None:
        rec["approved"] = native_props(rec["approved"])
    return rec


async def restore(tx: AsyncManagedTransaction, **params: Any) -> Row:
    rec = await _one(tx, "artifact/restore", **params)
    assert rec is not None
    if rec.get("restored") is not None:
        rec["restored"] = native_props(rec["restored"])
    return rec


async def by_key(tx: AsyncManagedTransaction, *, scope_id: str, key: str, families: list[str]) -> Row | None:
    """The live record a caller's key names (id, revision, status), or None."""
    rec = await _one(tx, "artifact/by_key", scope_id=scope_id, key=key, families=families)
    return rec if rec is not None and rec["id"] is not None else None


async def load_by_key(tx: AsyncManagedTransaction, *, scope_id: str, key: str, families: list[str],
                      now: datetime) -> Row | None:
    """Load (a recall) the record a caller's key names; None when there is none."""
    rec = await _one(tx, "artifact/load_by_key", scope_id=scope_id, key=key, families=families, now=now)
    return artifact_row(rec["artifact"]) if rec is not None and rec["artifact"] is not None else None
