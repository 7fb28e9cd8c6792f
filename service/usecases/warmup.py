"""Plans made at start-up, before an agent's first call.

Neo4j plans a query the first time it runs it after the server starts, and the context query is big: planning it
takes seconds on a small machine (docs/benchmarks.md), which an agent's first context call after a Neo4j restart
would wait. The service makes that call itself, in the background as soon as it has started, on a scope no one
holds (a fresh random id of the shape scope ids have): the query finds no scope, so it reads no memory, counts no
recall and writes nothing, and its plan is the one every later call uses (one plan for every surface, query and
ranked-id count: `$q` and `$arms` are maps, see service/usecases/context.py `query_params`). Explicit search is
warmed the same way, through its Lucene path so that no scope copy is built in the runtime's scope index (the plan
is the same query's: the two paths differ only in values inside `$q`).

It does not hold readiness back: a call that arrives first waits for Neo4j's plan as it did before. A failure is
logged and changes nothing else. `COGNITION_WARM_PLANS=false` turns it off."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from typing import Any

from graph.errors import NotFound
from graph.model import Family
from service.usecases import context
from service.usecases.artifacts import search_ranked
from service.usecases.runtime import Runtime

_log = logging.getLogger("cognition.warmup")


async def warm_plans(rt: Runtime) -> dict[str, float]:
    """Run the context and search queries once on a scope that does not exist; seconds each took, by name."""
    probe = uuid.uuid4().hex  # unguessable, so no scope can be made to answer it
    lucene_only = dataclasses.replace(rt.ranking, scope_index=False)
    calls: dict[str, Callable[[], Awaitable[Any]]] = {
        "context": lambda: context.assemble(rt, probe, surface="all"),
        "search": lambda: search_ranked(rt, probe, [Family.memory], query="warm up", recall=False,
                                        params=lucene_only),
    }
    took: dict[str, float] = {}
    for name, call in calls.items():
        started = time.perf_counter()
        try:
            await call()
        except NotFound:
            pass  # the context call's answer for a scope that does not exist: planned and run
        except Exception as exc:  # noqa: BLE001 - a warm-up never stops the service; the first call plans instead
            _log.warning("plan warm-up of %s failed (%s); its first call will plan it", name, type(exc).__name__)
            return took
        took[name] = time.perf_counter() - started
    _log.info("plans warmed: %s", ", ".join(f"{n} {s:.1f} s" for n, s in took.items()))
    return took


@asynccontextmanager
async def in_background(rt: Runtime, *, enabled: bool) -> AsyncIterator[None]:
    """`warm_plans` as a task while the body runs (the server serving); cancelled when it ends: a shutdown does not
    wait for a plan."""
    warming = asyncio.create_task(warm_plans(rt)) if enabled else None
    try:
        yield
    finally:
        if warming is not None:
            warming.cancel()
            with suppress(asyncio.CancelledError):
                await warming
