"""Schema and migrations: the numbered files in `cypher/schema/` applied in order, idempotently, with each
applied version recorded in the graph; then the scope guard: the database's before-commit trigger installed and
proven live, or, on a server without APOC triggers, none (the write queries and the constraints guard alone).

The two guards (docs/operations.md, "Scope guard"):
- `trigger`: the APOC trigger `cognition_scope_invariants` checks every committing transaction, whoever wrote it
  (the service, cypher-shell, Browser): raw Cypher that breaks a scope invariant is refused too.
- `queries`: the service's own write queries match both ends of every relationship inside one scope, create a
  scope with its two kernels in one transaction, never set `scope_id` after creation and delete a scope with its
  artifacts; the uniqueness constraints (one agent and one world kernel a scope, unique ids) hold against anyone.
  Raw Cypher is not checked: `cognition audit` finds what it broke."""

from __future__ import annotations

import asyncio
import hashlib
import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal

from neo4j.exceptions import Neo4jError

import cypher
from graph.driver import Graph
from graph.errors import CognitionError

TRIGGERS = {"cognition_scope_invariants": "triggers/scope_invariants"}
_PROBE_SCOPE = "__cognition_trigger_probe__"
Guard = Literal["trigger", "queries"]
GuardSetting = Literal["auto", "trigger", "queries"]
log = logging.getLogger("cognition.schema")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    statements: tuple[str, ...]
    checksum: str


@dataclass(slots=True)
class SchemaReport:
    applied: list[int] = field(default_factory=list)
    version: int = 0
    triggers: list[str] = field(default_factory=list)
    guard: Guard = "trigger"


def migrations() -> list[Migration]:
    out = []
    for path in sorted((cypher.ROOT / "schema").glob("[0-9][0-9][0-9][0-9]_*.cypher")):
        text = path.read_text(encoding="utf-8")
        out.append(Migration(int(path.name[:4]), path.stem, tuple(cypher.statements(text)),
                             hashlib.sha256(text.encode()).hexdigest()))
    return out


async def applied_versions(graph: Graph) -> set[int]:
    rows = await graph.query(cypher.load("admin/applied_migrations"), write=False)
    return {int(r["v"]) for r in rows}


async def apply_schema(graph: Graph, *, rerun: bool = False, guard: GuardSetting = "auto") -> SchemaReport:
    """Apply pending migrations (all of them with `rerun`: each statement is idempotent), then the scope guard
    (`guard`: see install_guard)."""
    report = SchemaReport()
    done = await applied_versions(graph)
    for m in migrations():
        if m.version in done and not rerun:
            continue
        for stmt in m.statements:
            await graph.autocommit(stmt)
        await graph.query(cypher.load("admin/record_migration"), v=m.version, name=m.name, sum=m.checksum,
                          now=datetime.now(UTC))
        report.applied.append(m.version)
    await graph.autocommit(cypher.load("admin/await_indexes"))
    report.version = max((m.version for m in migrations()), default=0)
    report.guard = await install_guard(graph, guard)
    report.triggers = list(TRIGGERS) if report.guard == "trigger" else []
    return report


class TriggersUnavailable(CognitionError):
    """The server does not let this user install or list APOC triggers (no APOC trigger procedures, triggers
    disabled in apoc.conf, or no admin rights on the system database)."""

    code = "triggers_unavailable"


def _unavailable(exc: CognitionError) -> bool:
    cause = exc.__cause__
    return isinstance(cause, Neo4jError) and (cause.code or "").startswith(
        ("Neo.ClientError.Procedure.", "Neo.ClientError.Security."))


def _refused_by(wanted: GuardSetting, exc: TriggersUnavailable) -> Guard:
    if wanted == "trigger":
        raise CognitionError(f"COGNITION_SCOPE_GUARD=trigger, but {exc.message}", code="trigger_unavailable") from exc
    log.warning("APOC triggers are not available (%s): the scope invariants are guarded by the write queries "
                "and the constraints only; raw Cypher is not checked (`cognition audit` finds what it breaks)",
                exc.message)
    return "queries"


async def install_guard(graph: Graph, wanted: GuardSetting) -> Guard:
    """"queries": nothing installed. "trigger": the trigger installed and proven live, or start-up fails.
    "auto": the trigger where the server allows it, else "queries" (logged as a warning)."""
    if wanted == "queries":
        return "queries"
    try:
        await install_triggers(graph)
    except TriggersUnavailable as exc:
        return _refused_by(wanted, exc)
    return "trigger"


async def detect_guard(graph: Graph, wanted: GuardSetting) -> Guard:
    """The guard a process serves under, without installing anything (a worker, when the schema was applied by
    its parent): "trigger" where the server runs APOC triggers (readiness then waits for ours to be live)."""
    if wanted == "queries":
        return "queries"
    try:
        await graph.query(cypher.load("admin/triggers_live"), write=False)
    except CognitionError as exc:
        if not _unavailable(exc):
            raise
        return _refused_by(wanted, TriggersUnavailable(f"listing APOC triggers failed: {exc.__cause__}"))
    return "trigger"


async def install_triggers(graph: Graph) -> list[str]:
    try:
        installed = {r["name"]: r["query"] for r in await graph.query(
            cypher.load("admin/triggers_show"), database="system", db=graph.database)}
        for name, query_name in TRIGGERS.items():
            text = cypher.load(query_name)
            if installed.get(name) != text:
                await graph.autocommit(cypher.load("admin/trigger_install"),
                                       database="system", db=graph.database, name=name, stmt=text)
    except CognitionError as exc:
        if _unavailable(exc):
            raise TriggersUnavailable(f"installing the APOC trigger failed: {exc.__cause__}") from exc
        raise
    await _await_triggers_live(graph)
    return list(TRIGGERS)


async def drop_triggers(graph: Graph) -> None:
    """Remove the scope-invariant trigger (for an operator leaving trigger mode, and the tests of queries mode);
    returns once it no longer refuses a kernel-less scope."""
    for name in TRIGGERS:
        await graph.autocommit(cypher.load("admin/trigger_drop"), database="system", db=graph.database, name=name)
    deadline = asyncio.get_running_loop().time() + 30.0
    while True:
        try:
            await graph.query(cypher.load("admin/trigger_probe_create"), id=_PROBE_SCOPE)
        except CognitionError as exc:
            if exc.code != "kernel_cardinality" or asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.3)
            continue
        await graph.query(cypher.load("admin/trigger_probe_delete"), id=_PROBE_SCOPE)
        return


async def _await_triggers_live(graph: Graph, timeout: float = 30.0) -> None:
    """APOC picks triggers up on its refresh tick; prove ours refuses a kernel-less scope before serving."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        try:
            await graph.query(cypher.load("admin/trigger_probe_create"), id=_PROBE_SCOPE)
        except CognitionError as exc:
            if exc.code == "kernel_cardinality":
                return
            raise
        await graph.query(cypher.load("admin/trigger_probe_delete"), id=_PROBE_SCOPE)
        if asyncio.get_running_loop().time() > deadline:
            raise CognitionError("the scope-invariant trigger did not become live; is apoc.trigger.enabled=true?",
                                 code="trigger_not_live")
        await asyncio.sleep(0.3)
