"""The scope guard detected at start-up, on a real Neo4j without APOC triggers (the managed `notrigger` instance:
the same Community server and APOC Core, `apoc.trigger.enabled=false`, as on the managed Neo4j service): `auto`
serves under the `queries` guard and says so, `trigger` refuses to start, and `cognition audit` finds what raw
Cypher breaks there."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from graph.driver import Neo4jConfig
from service import neo4j_local
from tests.conftest import BOOTSTRAP_KEY, unique
from tests.served import Served, free_port

INSTANCE = neo4j_local.NOTRIGGER_INSTANCE


@pytest.fixture(scope="module")
def bare() -> Iterator[Neo4jConfig]:
    password = neo4j_local.start(INSTANCE, fresh=True)
    try:
        yield Neo4jConfig(INSTANCE.uri, "neo4j", password)
    finally:
        neo4j_local.stop(INSTANCE)


def _env(cfg: Neo4jConfig, **extra: str) -> dict[str, str]:
    return {**os.environ, "NEO4J_URI": cfg.uri, "NEO4J_USER": cfg.user, "NEO4J_PASSWORD": cfg.password,
            "COGNITION_BOOTSTRAP_KEY": BOOTSTRAP_KEY, **extra}


def _cli(cfg: Neo4jConfig, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "service.cli", *args], env=_env(cfg), capture_output=True,
                          text=True, timeout=timeout)


def test_auto_serves_under_the_queries_guard_and_the_audit_finds_raw_breakage(
        bare: Neo4jConfig, tmp_path: Path) -> None:
    applied = _cli(bare, "schema", "apply")
    assert applied.returncode == 0, applied.stderr
    assert "scope guard: queries" in applied.stdout
    served = Served(bare, BOOTSTRAP_KEY, log=tmp_path / "serve.log")
    served.start()
    try:
        with served.client() as c:
            assert c.get("/healthz").json()["scope_guard"] == "queries"
            ready = c.get("/readyz")
            assert ready.status_code == 200 and ready.json()["triggers_live"] == [], ready.text
            scopes = [c.post("/v1/scopes", json={"namespace": unique("ns"), "cognitive_owner": "o",
                                                 "name": "s"}).json() for _ in range(2)]
            mems = [c.post(f"/v1/scopes/{s['id']}/memories", json={"kind": "semantic", "tier": "agent",
                                                                    "content": "the build runs on Fridays"}).json()
                    for s in scopes]
            r = c.post(f"/v1/scopes/{scopes[0]['id']}/edges", json={"type": "DEPENDS_ON", "from_id": mems[0]["id"],
                                                                     "to_id": mems[1]["id"]})
            assert r.status_code == 404, r.text  # the query guards: the other scope's id matches nothing
        assert "scope guard: queries" in served.tail(400)
    finally:
        served.stop()
    clean = _cli(bare, "audit")
    assert clean.returncode == 0 and "ok: every scope invariant holds" in clean.stdout, clean.stdout + clean.stderr
    # Nothing in the database refuses raw Cypher here: the audit finds it.
    from neo4j import GraphDatabase

    with GraphDatabase.driver(bare.uri, auth=(bare.user, bare.password)) as raw:
        raw.execute_query("MATCH (x {id: $a}), (y {id: $b}) CREATE (x)-[:DEPENDS_ON]->(y)",
                          a=mems[0]["id"], b=mems[1]["id"])
        raw.execute_query("MATCH (k {id: $k}) DETACH DELETE k", k=scopes[1]["world_kernel_id"])
    found = _cli(bare, "audit", "--json")
    assert found.returncode == 1, found.stdout + found.stderr
    checks = {c["check"]: c for c in json.loads(found.stdout)["checks"]}
    assert checks["cross_scope_reference"]["found"] == 1
    assert checks["cross_scope_reference"]["examples"][0]["from_id"] == mems[0]["id"]
    assert checks["kernel_cardinality"]["examples"] == [{"scope_id": scopes[1]["id"], "agent_kernels": 1,
                                                         "world_kernels": 0}]
    assert checks["artifact_without_scope"]["found"] == 0


def test_a_trigger_guard_that_cannot_be_had_stops_start_up(bare: Neo4jConfig) -> None:
    p = subprocess.run([sys.executable, "-m", "service.cli", "serve"], capture_output=True, text=True, timeout=120,
                       env=_env(bare, COGNITION_SCOPE_GUARD="trigger", COGNITION_PORT=str(free_port())))
    assert p.returncode != 0
    assert "trigger_unavailable" in p.stderr or "COGNITION_SCOPE_GUARD=trigger" in p.stderr, p.stderr[-2000:]
