"""The event feed: every change's audit event, numbered per namespace once it has committed.

A change writes its `:Event` in its own transaction, marked `:Unsequenced`. The sequencer — a background task in
every replica, and the first step of every feed read — numbers a namespace's committed events under its
`:EventLog` lock (cypher/events/sequence.cypher). A position is therefore given only to an event already
committed, and every position below it is visible when it is: a consumer that has read up to position n never
finds an event below n later (docs/decisions/0017-event-positions-after-commit.md)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from graph import events as repo
from graph.driver import Graph
from graph.errors import CognitionError
from service.usecases.background import running
from service.usecases.runtime import Runtime

_log = logging.getLogger("cognition.events")

SEQUENCE_BATCH = 2_000  # events numbered per namespace per run; a backlog takes several runs
MAX_PAGE = 1_000


@dataclass(frozen=True, slots=True)
class FeedPage:
    events: list[dict[str, Any]]
    last: int  # the namespace's last position when the page was read

    @property
    def more(self) -> bool:
        return bool(self.events) and int(self.events[-1]["position"]) < self.last


async def read(rt: Runtime, namespace: str, *, after: int = 0, limit: int = 100) -> FeedPage:
    """The events of `namespace` after position `after`, oldest first, at most `limit` (the namespace sequenced
    first, in the same transaction)."""
    last, rows = await rt.graph.write(repo.page, namespace=namespace, after=max(0, after),
                                      limit=max(1, min(limit, MAX_PAGE)), batch=SEQUENCE_BATCH)
    return FeedPage(rows, last)


async def sequence(graph: Graph, namespaces: list[str] | None = None) -> int:
    """One run of the sequencer: how many events it numbered."""
    rows = await graph.write(repo.sequence, namespaces=namespaces, batch=SEQUENCE_BATCH)
    return sum(int(r["stamped"]) for r in rows)


@contextlib.asynccontextmanager
async def sequencer(graph: Graph, *, every_s: float) -> AsyncIterator[None]:
    """While the app serves: a sequencer run every `every_s` seconds (at once again when a run found a full
    batch). A run that fails (Neo4j away) is tried again at the next tick; no event waits on it longer than that,
    since every feed read sequences its namespace itself."""
    if every_s <= 0:
        yield
        return

    async def loop() -> None:
        while True:
            try:
                stamped = await sequence(graph)
            except CognitionError as exc:
                _log.warning("event sequencer run failed (%s); trying again", exc.code)
                stamped = 0
            if stamped < SEQUENCE_BATCH:
                await asyncio.sleep(every_s)

    async with running(loop()):
        yield
