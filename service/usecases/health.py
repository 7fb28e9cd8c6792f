"""Is the service able to serve: Neo4j answers (liveness), and the schema and (under the trigger guard) the
scope-invariant trigger are in place (readiness)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from graph import keys as keys_repo
from graph.schema import TRIGGERS, migrations
from service.usecases.runtime import Runtime


@dataclass(frozen=True, slots=True)
class Readiness:
    schema_version: int
    expected_schema_version: int
    triggers_live: list[str]
    scope_guard: str = "trigger"
    problems: list[str] = field(default_factory=list)  # empty: ready


async def alive(rt: Runtime) -> bool:
    return await rt.graph.ping()


async def readiness(rt: Runtime, timeout: float = 5.0) -> Readiness:
    """The schema version against the migrations this code carries, and, under the trigger guard, the triggers
    live (one round trip).
    TimeoutError when Neo4j does not answer within `timeout`."""
    guarded = rt.scope_guard == "trigger"
    state = await asyncio.wait_for(rt.graph.read(keys_repo.readiness, triggers=guarded), timeout)
    expected = max((m.version for m in migrations()), default=0)
    version = int(state["version"] or 0)
    missing = sorted(set(TRIGGERS) - set(state["live"])) if guarded else []
    problems = []
    if version < expected:
        problems.append(f"schema at version {version}, {expected} expected")
    if missing:
        problems.append(f"trigger(s) not live: {', '.join(missing)}")
    return Readiness(version, expected, sorted(set(TRIGGERS) & set(state["live"])), rt.scope_guard, problems)
