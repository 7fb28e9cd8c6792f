"""`cognition backup` / `cognition restore` of a managed local Neo4j, on a dedicated instance of its own (ports
19290/19091 unless COGNITION_BACKUP_TEST_PORTS says otherwise), so the shared test server is never stopped:
a dump taken of a store with a scope in it, loaded after the store was changed, brings the scope back exactly
and the service's invariants trigger (kept in the `system` database) still holds."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from neo4j import GraphDatabase

from graph.driver import Graph, Neo4jConfig
from graph.schema import apply_schema
from service import cli, neo4j_local
from service.usecases.runtime import Runtime
from service.usecases.scopes import create_scope

bolt, http = (int(p) for p in os.environ.get("COGNITION_BACKUP_TEST_PORTS", "19290,19091").split(","))
INSTANCE = neo4j_local.LocalInstance("backup-test", bolt, http, os.environ.get("COGNITION_NEO4J_HEAP", "512m"), "128m")


@pytest.fixture
def instance(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[neo4j_local.LocalInstance, str]]:
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("backup/restore runs a managed Neo4j: needs Java 17 or 21 "
                    "(apt-get install openjdk-17-jre-headless)")
    monkeypatch.delenv("NEO4J_URI", raising=False)
    monkeypatch.delenv("NEO4J_PASSWORD", raising=False)
    monkeypatch.setitem(neo4j_local.INSTANCES, INSTANCE.name, INSTANCE)  # `--instance backup-test`
    password = neo4j_local.start(INSTANCE, fresh=True)
    try:
        yield INSTANCE, password
    finally:
        neo4j_local.stop(INSTANCE)
        shutil.rmtree(INSTANCE.root, ignore_errors=True)


def test_backup_then_restore_brings_the_store_back(instance: tuple[neo4j_local.LocalInstance, str],
                                                   tmp_path: Path) -> None:
    import asyncio

    inst, password = instance
    cfg = Neo4jConfig(inst.uri, "neo4j", password)

    async def setup() -> str:
        graph = Graph.connect(cfg)
        try:
            await apply_schema(graph)
            scope = await create_scope(Runtime(graph), namespace="bk", cognitive_owner="o", name="kept", actor="test")
            return str(scope["id"])
        finally:
            await graph.close()

    scope_id = asyncio.run(setup())
    dump = tmp_path / "store.dump"
    assert cli.main(["backup", "--instance", inst.name, "--to", str(dump)]) == 0
    assert dump.is_file() and dump.stat().st_size > 0
    assert neo4j_local.status(inst) is not None  # started again after the dump
    with GraphDatabase.driver(inst.uri, auth=("neo4j", password)) as d:
        d.execute_query("MATCH (s:Scope {id: $id}) SET s.name = 'changed after the backup'", id=scope_id)
        d.execute_query("CREATE (:Scratch {v: 1})")
    assert cli.main(["restore", str(dump), "--instance", inst.name]) == 0
    with GraphDatabase.driver(inst.uri, auth=("neo4j", password)) as d:
        recs, _, _ = d.execute_query("MATCH (s:Scope {id: $id}) RETURN s.name AS name, "
                                     "COUNT { MATCH (k:Artifact {scope_id: $id}) } AS kernels", id=scope_id)
        assert [(r["name"], r["kernels"]) for r in recs] == [("kept", 2)]
        recs, _, _ = d.execute_query("MATCH (x:Scratch) RETURN count(x) AS n")
        assert recs[0]["n"] == 0
        # the trigger survived (it lives in `system`): a second agent kernel is still refused
        with pytest.raises(Exception, match="kernel_cardinality"):
            d.execute_query("CREATE (:Artifact:AgentKernel {id: 'k2', scope_id: $id, family: 'agent_kernel'})",
                            id=scope_id)
    assert cli.main(["restore", str(tmp_path / "missing.dump"), "--instance", inst.name]) == 2
