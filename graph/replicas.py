"""The service replicas' heartbeats: how many `cognition serve` processes share this Neo4j now (rate limits)."""

from __future__ import annotations

from datetime import datetime

import cypher
from graph.driver import Graph


async def beat(graph: Graph, *, replica_id: str, now: datetime, live_s: float) -> int:
    """Record that this replica is alive; how many replicas are (this one included)."""
    rows = await graph.query(cypher.load("replicas/beat"), id=replica_id, now=now, live_s=int(max(1, live_s)))
    return max(1, int(rows[0]["live"])) if rows else 1


async def leave(graph: Graph, *, replica_id: str) -> None:
    await graph.query(cypher.load("replicas/leave"), id=replica_id)
