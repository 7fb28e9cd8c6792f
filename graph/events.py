"""The event feed: the sequencer that numbers committed events per namespace, and the feed's pages. Every function
takes the transaction it runs in."""

from __future__ import annotations

from typing import Any

from neo4j import AsyncManagedTransaction

from graph.driver import run_named
from graph.model import native

Row = dict[str, Any]


async def sequence(tx: AsyncManagedTransaction, *, namespaces: list[str] | None, batch: int) -> list[Row]:
    """Number the unnumbered committed events of `namespaces` (None: of every namespace that has some):
    [{namespace, stamped, last}]."""
    return await run_named(tx, "events/sequence", namespaces=namespaces, batch=batch)


async def page(tx: AsyncManagedTransaction, *, namespace: str, after: int, limit: int,
               batch: int) -> tuple[int, list[Row]]:
    """(the namespace's last position, the events after `after` up to `limit`), the namespace sequenced first."""
    rows = await run_named(tx, "events/page", namespace=namespace, after=after, limit=limit, batch=batch)
    row = rows[0]
    return int(row["last"]), [native({k: v for k, v in e.items() if v is not None}) for e in row["events"]]
