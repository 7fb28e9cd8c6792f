"""Schema and migrations: the numbered files in `cypher/schema/` applied in order, idempotently, with each
applied version recorded in the graph; then the database's before-commit triggers installed and proven live."""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass, field
from datetime import UTC, datetime

import cypher
from graph.driver import Graph
from graph.errors import CognitionError

TRIGGERS = {"cognition_scope_invariants": "triggers/scope_invariants"}
_PROBE_SCOPE = "__cognition_trigger_probe__"


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


async def apply_schema(graph: Graph, *, rerun: bool = False) -> SchemaReport:
    """Apply pending migrations (all of them with `rerun`: each statement is idempotent), then triggers."""
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
    report.triggers = await install_triggers(graph)
    return report


async def install_triggers(graph: Graph) -> list[str]:
    installed = {r["name"]: r["query"] for r in await graph.query(
        cypher.load("admin/triggers_show"), database="system", db=graph.database)}
    for name, query_name in TRIGGERS.items():
        text = cypher.load(query_name)
        if installed.get(name) != text:
            await graph.autocommit(cypher.load("admin/trigger_install"),
                                   database="system", db=graph.database, name=name, stmt=text)
    await _await_triggers_live(graph)
    return list(TRIGGERS)


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
