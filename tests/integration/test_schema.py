"""Schema migrations are idempotent and recorded in the graph; indexes the filters need exist."""

from __future__ import annotations

from neo4j import Driver

from graph.schema import apply_schema, migrations
from tests.conftest import OnGraph


def test_schema_applies_twice_without_change(raw: Driver, on_graph: OnGraph) -> None:
    def snapshot() -> tuple[list[str], list[str]]:
        idx = sorted(r["name"] for r in raw.execute_query("SHOW INDEXES YIELD name").records)
        cons = sorted(r["name"] for r in raw.execute_query("SHOW CONSTRAINTS YIELD name").records)
        return idx, cons

    before = snapshot()
    report = on_graph(lambda g: apply_schema(g, rerun=True))
    assert report.applied == [m.version for m in migrations()]
    again = on_graph(lambda g: apply_schema(g, rerun=True))
    assert again.applied == report.applied
    assert snapshot() == before
    assert on_graph(apply_schema).applied == []  # nothing pending on a normal start
    version = raw.execute_query("MATCH (s:SchemaState {id: 'cognition'}) RETURN s.version").records[0][0]
    assert version == max(m.version for m in migrations())
    recorded = raw.execute_query("MATCH (m:SchemaMigration) RETURN count(m)").records[0][0]
    assert recorded == len(migrations())


def test_expected_indexes_exist(raw: Driver) -> None:
    rows = {r["name"]: r for r in raw.execute_query(
        "SHOW INDEXES YIELD name, type, labelsOrTypes, properties, options").records}
    assert rows["artifact_text"]["type"] == "FULLTEXT"
    assert rows["artifact_text"]["options"]["indexConfig"]["fulltext.analyzer"] == "cjk"
    for name in ("artifact_scope_family_status", "artifact_tier", "artifact_kind", "artifact_status"):
        assert rows[name]["type"] == "RANGE"
    cons = {r["name"] for r in raw.execute_query("SHOW CONSTRAINTS YIELD name").records}
    assert {"scope_id_unique", "artifact_id_unique"} <= cons
