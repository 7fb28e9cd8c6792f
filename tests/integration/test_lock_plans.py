"""Keep the lost-update class from coming back: every named query that locks declares what its lock guards
(`// guards: a.revision, a.status`), and its plan (`EXPLAIN`, against the real Neo4j) must not read any guarded
property before the lock — neither a plain read nor a property cache (`CacheProperties cache[a.revision]`) that
the planner placed at the index seek. That hoisted cache is exactly how `update.cypher` once compared a
revision read before `apoc.lock.nodes`, so eight concurrent If-Match updates all won."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from neo4j import Driver

import cypher

ROOT = Path(cypher.__file__).parent
LOCKING = re.compile(r"_lock = true|apoc\.lock\.nodes")
GUARDS = re.compile(r"^// guards: (.+)$", re.MULTILINE)


def locking_queries() -> list[str]:
    names = []
    for path in sorted(ROOT.rglob("*.cypher")):
        if path.parent.name == "fragments":  # checked in the queries that include them
            continue
        text = cypher.compose(str(path.relative_to(ROOT).with_suffix("")))
        body = "\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith("//"))
        if LOCKING.search(body) or GUARDS.search(text):
            names.append(str(path.relative_to(ROOT).with_suffix("")))
    return names


def guards(text: str) -> list[tuple[str, str]]:
    found = GUARDS.findall(text)
    return [tuple(g.strip().split(".", 1)) for line in found for g in line.split(",")]  # type: ignore[misc]


def execution_order(plan: dict[str, Any]) -> list[dict[str, Any]]:
    """Operators in the order rows meet them: a child before its parent, a left-hand side before the right."""
    out: list[dict[str, Any]] = []

    def walk(p: dict[str, Any]) -> None:
        for child in p.get("children", []):
            walk(child)
        out.append(p)

    walk(plan)
    return out


def details(op: dict[str, Any]) -> str:
    return str(op.get("args", {}).get("Details", ""))


def reads_before_lock(plan: dict[str, Any], guarded: list[tuple[str, str]]) -> list[str]:
    """The guarded properties an operator reads before the first operator that takes the lock."""
    ops = execution_order(plan)
    lock_at = next((i for i, op in enumerate(ops) if LOCKING.search(details(op))), None)
    assert lock_at is not None, "the plan takes no lock"
    bad = []
    for op in ops[:lock_at]:
        for var, prop in guarded:
            if re.search(rf"(?<![\w.]){re.escape(var)}\.{re.escape(prop)}\b", details(op)):
                bad.append(f"{op['operatorType']}: {var}.{prop} ({details(op)[:120]})")
    return bad


def explain(raw: Driver, text: str) -> dict[str, Any]:
    params = {k: None for k in re.findall(r"\$([A-Za-z_]+)", text)}
    with raw.session() as s:
        summary = s.run("EXPLAIN " + text, params).consume()
    assert summary.plan is not None
    return summary.plan  # type: ignore[return-value]


def test_every_locking_query_declares_what_its_lock_guards() -> None:
    names = locking_queries()
    assert {"artifact/update", "artifact/approve", "artifact/reject", "artifact/restore", "artifact/delete",
            "artifact/load", "artifact/edge_create", "artifact/relates_create", "context/assemble", "search/hybrid",
            "digest/lease_claim", "digest/run", "gc/run", "keys/revoke"} <= set(names), names
    for name in names:
        text = cypher.load(name)
        assert guards(text), f"{name} locks but has no `// guards:` header"
        assert "Concurrency rule" in text or "concurrency rule" in text, f"{name} states no concurrency rule"


@pytest.mark.parametrize("name", locking_queries())
def test_no_guarded_property_is_read_before_the_lock(raw: Driver, client: Any, name: str) -> None:
    text = cypher.compose(name)
    assert reads_before_lock(explain(raw, text), guards(cypher.load(name))) == []


# The update query as it was when 8 concurrent If-Match updates all answered 200: the planner cached
# a.revision at the index seek, before apoc.lock.nodes. The check above must catch it.
LOST_UPDATE = """
OPTIONAL MATCH (a:Artifact {id: $id}) WHERE a.scope_id = $scope_id AND a.family IN $families
OPTIONAL MATCH (s:Scope {id: $scope_id})
WITH a, apoc.convert.fromJsonMap(coalesce(s.write_policy, '{}')) AS policy
WITH a, coalesce(policy.by_kind[coalesce(a.kind, '')], policy.by_family[a.family], policy.default, 'auto') = 'deny'
        AS denied
CALL apoc.lock.nodes(CASE WHEN a IS NULL THEN [] ELSE [a] END)
WITH a, denied, a.revision AS current
OPTIONAL CALL (a, current, denied) {
  WITH a WHERE current = $expected AND NOT denied
  SET a += $changes, a.revision = current + 1, a.updated_at = $now
  RETURN a {.*} AS updated
}
RETURN a IS NOT NULL AS found, denied, current, updated
"""


def test_the_check_catches_the_lost_update_plan(raw: Driver, client: Any) -> None:
    bad = reads_before_lock(explain(raw, LOST_UPDATE), [("a", "revision")])
    assert bad and any("a.revision" in b for b in bad), bad
