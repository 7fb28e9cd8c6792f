"""`cognition backup` / `cognition restore` of the managed test instance: a dump taken of a store with a scope in
it, loaded after the store was changed, brings the scope back exactly, and the service's invariants trigger (kept
in the `system` database) still holds. Both stop and start the server, so this runs with the other
`neo4j_restart` tests, after every other test (tests/integration/conftest.py); the restore leaves the store as the
dump had it, which no later test reads."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from neo4j import GraphDatabase

from graph.driver import Graph, Neo4jConfig
from service import cli, neo4j_local
from service.usecases.runtime import Runtime
from service.usecases.scopes import create_scope

INSTANCE = neo4j_local.TEST_INSTANCE


@pytest.mark.neo4j_restart
@pytest.mark.skipif(bool(os.environ.get("COGNITION_TEST_NEO4J_URI")),
                    reason="backs up the managed test instance (unset COGNITION_TEST_NEO4J_URI)")
def test_backup_then_restore_brings_the_store_back(neo4j_config: Neo4jConfig, client: TestClient, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    inst, password, cfg = INSTANCE, neo4j_config.password, neo4j_config  # `client`: the schema is applied
    monkeypatch.delenv("NEO4J_URI", raising=False)  # the commands act on the managed instance
    monkeypatch.delenv("NEO4J_PASSWORD", raising=False)

    async def setup() -> str:
        graph = Graph.connect(cfg)
        try:
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
    made = {"namespace": "bk", "cognitive_owner": "o", "name": "after the backup"}
    assert client.post("/v1/scopes", json=made).status_code == 201  # the live service writes past the dump
    assert cli.main(["restore", str(dump), "--instance", inst.name]) == 0
    # the service lived through the restore: it answers, not waiting for the transactions the store lost (503
    # `bookmark_not_reached` after minutes, when its sessions chained on its own bookmarks)
    r = client.post("/v1/scopes", json={**made, "name": "after the restore"})
    assert r.status_code == 201, r.text
    with GraphDatabase.driver(inst.uri, auth=("neo4j", password)) as d:
        recs, _, _ = d.execute_query("MATCH (s:Scope {id: $id}) RETURN s.name AS name, "
                                     "COUNT { MATCH (k:Artifact {scope_id: $id}) } AS kernels", id=scope_id)
        assert [(r["name"], r["kernels"]) for r in recs] == [("kept", 2)]
        recs, _, _ = d.execute_query("MATCH (x:Scratch) RETURN count(x) AS n")
        assert recs[0]["n"] == 0
        # the trigger survived (it lives in `system`): a scope without kernels is still refused
        with pytest.raises(Exception, match="kernel_cardinality"):
            d.execute_query("CREATE (:Scope {id: 'kernel-less', namespace: 'n', cognitive_owner: 'o', name: 'x'})")
    assert cli.main(["restore", str(tmp_path / "missing.dump"), "--instance", inst.name]) == 2
