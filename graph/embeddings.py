"""Vectors on artifacts: written after the embed step, backfilled, and the vector index sized to the embedder."""

from __future__ import annotations

from typing import Any

from neo4j import AsyncManagedTransaction

import cypher
from graph.driver import Graph, run_named

VECTOR_INDEX = "artifact_embedding"


async def set_vectors(tx: AsyncManagedTransaction, /, *, scope_id: str | None, rows: list[dict[str, Any]]) -> int:
    """search/embedding_set.cypher: each row's vector, written only where its artifact is still at the revision that
    was embedded; how many were written."""
    out = await run_named(tx, "search/embedding_set", scope_id=scope_id, rows=rows)
    return int(out[0]["written"]) if out else 0


async def missing(tx: AsyncManagedTransaction, /, *, model: str, scope_id: str | None,
                  limit: int) -> list[dict[str, Any]]:
    """search/embedding_missing.cypher: searchable rows with no vector from `model` at their current revision."""
    return await run_named(tx, "search/embedding_missing", model=model, scope_id=scope_id, limit=limit)


async def ensure_vector_index(graph: Graph, dimensions: int) -> None:
    """The vector index sized to `dimensions` (idempotent); re-created when its size changed. Schema commands run
    as auto-commit queries."""
    rows = await graph.query(cypher.load("search/vector_index_show"), write=False, name=VECTOR_INDEX)
    if rows and rows[0]["dimensions"] not in (None, dimensions):
        await graph.autocommit(cypher.load("search/vector_index_drop"))
    await graph.autocommit(cypher.load("search/vector_index_create"), dimensions=dimensions)
