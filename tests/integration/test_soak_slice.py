"""A bounded slice of the soak (tests/soak.py; `make soak` runs it for 5 minutes) inside `make test`: the mixed
workload on one partition against three served replicas on the test Neo4j (the session's served process and two
more), each client spreading its requests over them round-robin, with the test Neo4j restarted in the middle and
one replica killed (SIGKILL) and started again; then every invariant is checked against the graph, read-your-writes
across replicas included."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from neo4j import Driver

from graph.driver import Neo4jConfig
from service import neo4j_local
from tests.conftest import BOOTSTRAP_KEY
from tests.served import Served
from tests.soak import REPLICAS, Ledger, Workload, _faults, check, report

SLICE_S = float(os.environ.get("COGNITION_SOAK_SLICE_S", "30"))


@pytest.fixture
def replicas(served: Served, neo4j_config: Neo4jConfig, tmp_path_factory: pytest.TempPathFactory) -> Iterator[
        list[Served]]:
    more = [Served(neo4j_config, BOOTSTRAP_KEY, log=tmp_path_factory.mktemp("replica") / "serve.log")
            for _ in range(REPLICAS - 1)]
    try:
        for s in more:
            s.start()
        yield [served, *more]
    finally:
        for s in more:
            s.stop()


@pytest.mark.neo4j_restart
def test_a_soak_slice_over_replicas_with_faults_keeps_every_invariant(replicas: list[Served], raw: Driver) -> None:
    """This test runs with the other restarts, after every other test. The replica killed is the last one started
    here; the session's served process keeps serving through the Neo4j restart."""
    managed = not os.environ.get("COGNITION_TEST_NEO4J_URI")  # an outside server is not ours to restart
    ledger = Ledger()
    w = Workload(replicas, ledger)
    inst = neo4j_local.TEST_INSTANCE
    faults = _faults(replicas, ledger, SLICE_S, lambda: neo4j_local.stop(inst),
                     lambda: neo4j_local.start(inst)) if managed else None
    took = w.run(SLICE_S, faults)
    print("\n" + report(ledger, took))
    for s in replicas:
        assert s.wait_ready(60.0)  # all up again after the faults
    problems = check(raw, w, faults=managed)
    assert problems == []
    ops = sum(len(v) for v in ledger.latencies.values())
    assert ops > 40, f"only {ops} operations in {took:.0f} s: the slice measured nothing"
    for op in ("save", "update", "load", "search", "read_own", "search_own"):
        assert ledger.statuses.get((op, 200), 0) + ledger.statuses.get((op, 201), 0) > 0, f"no {op} succeeded"
