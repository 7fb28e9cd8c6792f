"""The scope invariants checked over the whole database after the fact, under either scope guard
(graph/schema.py): what raw Cypher broke where no trigger refused it, or what a bug let through. Read-only."""

from __future__ import annotations

from typing import Any

from neo4j import AsyncManagedTransaction

import cypher

CHECKS = ("audit/cross_scope", "audit/orphans", "audit/kernels")


async def audit(tx: AsyncManagedTransaction, *, examples: int = 20) -> list[dict[str, Any]]:
    """One row a check: {check (the invariant's refusal code), found, examples (at most `examples`)}."""
    out = []
    for name in CHECKS:
        result = await tx.run(cypher.load(name), examples=examples)
        record = await result.single(strict=True)
        out.append(record.data())
    return out
