"""Recall reads: the context assembly and the hybrid search, each one named query (fragments composed by
cypher.compose) run in the caller's transaction."""

from __future__ import annotations

from typing import Any

from neo4j import AsyncManagedTransaction

import cypher
from graph.driver import run_named

Row = dict[str, Any]


async def assemble(tx: AsyncManagedTransaction, /, **params: Any) -> Row | None:
    """context/assemble.cypher: every requested arm in exactly one query. Its one record is read as it comes
    (its keys and raw values): its values are maps and lists only, so the driver's `data()` walk over every value of
    ~110 rows would copy them to the same thing (a few ms at 100,000 memories)."""
    result = await tx.run(cypher.compose("context/assemble"), params)
    record = await result.single()
    return dict(zip(record.keys(), record.values(), strict=True)) if record is not None else None


async def hybrid(tx: AsyncManagedTransaction, /, *, limit: int, recall: bool, **params: Any) -> list[Row]:
    """search/hybrid.cypher: full-text and vector rankings fused, in one query."""
    return await run_named(tx, "search/hybrid", limit=limit, recall=recall, **params)


async def scope_version(tx: AsyncManagedTransaction, /, *, scope_id: str) -> Row:
    """search/scope_version.cypher: the newest write, vector and deletion of a scope (index seeks)."""
    rows = await run_named(tx, "search/scope_version", scope_id=scope_id)
    return rows[0]


SCOPE_CHUNK = 5000  # rows a record of fragment SCOPE_ROWS (columns)


async def _scope_rows(tx: AsyncManagedTransaction, name: str, **params: Any) -> list[Row]:
    """A query ending in fragment SCOPE_ROWS, its columns turned back into rows (dicts), in order. A row deleted while
    the query ran reads as nulls (read-committed): it is left out, as a read a moment later would leave it."""
    result = await tx.run(cypher.compose(name), {**params, "chunk": SCOPE_CHUNK})
    rows: list[Row] = []
    async for record in result:
        keys = record.keys()
        for values in zip(*record.values(), strict=True):
            row = dict(zip(keys, values, strict=True))
            if row["id"] is not None:
                rows.append(row)
    return rows


async def scope_corpus(tx: AsyncManagedTransaction, /, *, scope_id: str, model: str | None) -> tuple[Row, list[Row]]:
    """The scope's version and its searchable rows (search/scope_corpus.cypher), in one read transaction."""
    version = await scope_version(tx, scope_id=scope_id)
    return version, await _scope_rows(tx, "search/scope_corpus", scope_id=scope_id, model=model)


async def scope_delta(tx: AsyncManagedTransaction, /, *, scope_id: str, model: str | None, since: Any) -> list[Row]:
    """The scope's searchable rows written after `since` (search/scope_delta.cypher)."""
    return await _scope_rows(tx, "search/scope_delta", scope_id=scope_id, model=model, since=since)


async def scope_window(tx: AsyncManagedTransaction, /, *, scope_id: str, since: Any, lookback: float) -> list[Row]:
    """The scope's searchable rows written in the `lookback` seconds up to `since`, as {id, created, updated}
    (search/scope_window.cypher), in no order; a row deleted meanwhile may come without its created or updated, and
    one without its id is left out (its tombstone reaches the copy)."""
    result = await tx.run(cypher.compose("search/scope_window"), scope_id=scope_id, since=since, lookback=lookback)
    record = await result.single()
    if record is None:
        return []
    return [{"id": i, "created": c, "updated": u}
            for i, c, u in zip(record["id"], record["created"], record["updated"], strict=True) if i is not None]


async def scope_rows(tx: AsyncManagedTransaction, /, *, scope_id: str, model: str | None,
                     ids: list[str]) -> list[Row]:
    """The scope's searchable rows of these ids, oldest first (search/scope_rows.cypher)."""
    return await _scope_rows(tx, "search/scope_rows", scope_id=scope_id, model=model, ids=ids)


async def scope_removed(tx: AsyncManagedTransaction, /, *, scope_id: str, since: Any, lookback: float) -> list[str]:
    """The ids of the scope's rows deleted since `since` less `lookback` seconds (search/scope_removed.cypher)."""
    return [r["id"] for r in await run_named(tx, "search/scope_removed", scope_id=scope_id, since=since,
                                             lookback=lookback)]
