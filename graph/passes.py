"""Digest and GC passes: the partition lease, the pass node, set-based rule queries and batched decision
writes. Every function takes the transaction it runs in, except `run_decisions`: a query with
`CALL { … } IN TRANSACTIONS` must run in an auto-commit transaction of its own."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from neo4j import AsyncManagedTransaction

import cypher
from graph.driver import Graph, run_named
from graph.model import native, native_props

Row = dict[str, Any]


def lease_id(namespace: str, owner: str) -> str:
    return f"{namespace}|{owner}"


async def _all(tx: AsyncManagedTransaction, name: str, **params: Any) -> list[Row]:
    return await run_named(tx, name, **params)


async def claim_lease(tx: AsyncManagedTransaction, *, lease: str) -> Row:
    """Lock the partition's lease and say who holds it (the lock lasts until this transaction ends)."""
    rows = await _all(tx, "digest/lease_claim", lease_id=lease)
    row = rows[0]
    return {"holder": row["holder"], "lease_until": native(row["lease_until"]),
            "pass": native_props(row["pass"]) if row["pass"] else None}


async def take_lease(tx: AsyncManagedTransaction, *, lease: str, pass_props: Row, lease_until: datetime,
                     resume: bool) -> Row:
    rows = await _all(tx, "digest/lease_take", lease_id=lease, lease_until=lease_until, resume=resume,
                      **{"pass": pass_props})
    return native_props(rows[0]["pass"])


async def finish(tx: AsyncManagedTransaction, *, lease: str, pass_id: str, now: datetime, counts: Row) -> Row:
    rows = await _all(tx, "digest/pass_finish", lease_id=lease, pass_id=pass_id, now=now, counts=counts)
    return native_props(rows[0]["pass"])


async def get_pass(tx: AsyncManagedTransaction, *, pass_id: str) -> Row | None:
    rows = await _all(tx, "digest/pass_get", pass_id=pass_id)
    if not rows:
        return None
    return {"pass": native_props(rows[0]["pass"]), "decisions": [native_props(d) for d in rows[0]["decisions"]]}


async def unclassified(tx: AsyncManagedTransaction, *, namespace: str, owner: str) -> list[Row]:
    return await _all(tx, "digest/unclassified", namespace=namespace, owner=owner)


async def classify(tx: AsyncManagedTransaction, *, rows: list[Row]) -> int:
    out = await _all(tx, "digest/classify", rows=rows)
    return int(out[0]["classified"]) if out else 0


async def supersede(tx: AsyncManagedTransaction, *, namespace: str, owner: str, now: datetime, actor: str) -> int:
    out = await _all(tx, "digest/supersede", namespace=namespace, owner=owner, now=now, actor=actor)
    return int(out[0]["superseded"]) if out else 0


async def mark_stale(tx: AsyncManagedTransaction, *, namespace: str, owner: str, stale_before: datetime,
                     now: datetime, actor: str) -> int:
    out = await _all(tx, "digest/mark_stale", namespace=namespace, owner=owner, stale_before=stale_before, now=now,
                     actor=actor)
    return int(out[0]["changed"]) if out else 0


async def candidates(tx: AsyncManagedTransaction, *, name: str, **params: Any) -> list[Row]:
    """The decisions a rule query proposes, unapplied (digest/candidates, gc/candidates): one set-based query."""
    rows = await _all(tx, name, **params)
    return list(rows[0]["decisions"]) if rows else []


async def run_decisions(graph: Graph, kind: str, *, on_record: Callable[[Row], None] | None = None,
                        **params: Any) -> list[Row]:
    """Decide and apply one pass (`<kind>/run`: rules + APPLY_DECISIONS), one auto-commit query whose decisions
    are written $batch per inner transaction; each transaction's record (`batch`: its decisions, `applied`,
    `total`) is handed to `on_record` as it streams back. The query answers each batch as one JSON string
    (cheaper for the driver to read than thousands of maps); the records here carry the decoded list."""
    def decoded(row: Row) -> None:  # in place: the records returned carry the decoded lists too
        row["batch"] = json.loads(row["batch"])
        if on_record is not None:
            on_record(row)

    return await graph.autocommit(cypher.compose(f"{kind}/run"), on_record=decoded, **params)


async def explain(tx: AsyncManagedTransaction, *, artifact_id: str) -> Row | None:
    """digest/explain.cypher: an artifact (or its tombstone) with every decision about it and their evidence."""
    rows = await _all(tx, "digest/explain", id=artifact_id)
    return rows[0] if rows else None
