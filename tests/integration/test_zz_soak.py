"""A bounded slice of the soak (tests/soak.py; `make soak` runs it for 5 minutes) inside `make test`: the mixed
workload on one partition against the served process, with the test Neo4j restarted in the middle and the
served process killed (SIGKILL) and started again; then every invariant is checked against the graph."""

from __future__ import annotations

import os
from typing import Any

import pytest
from neo4j import Driver

from graph.driver import Neo4jConfig
from service import neo4j_local
from tests.conftest import BOOTSTRAP_KEY
from tests.served import Served
from tests.soak import Ledger, Workload, _faults, check, report

SLICE_S = float(os.environ.get("COGNITION_SOAK_SLICE_S", "45"))


@pytest.mark.neo4j_restart
def test_a_soak_slice_with_faults_keeps_every_invariant(neo4j_config: Neo4jConfig, raw: Driver, client: Any) -> None:
    managed = not os.environ.get("COGNITION_TEST_NEO4J_URI")  # an outside server is not ours to restart
    server = Served(neo4j_config, BOOTSTRAP_KEY)
    server.start()
    try:
        ledger = Ledger()
        w = Workload(server, ledger)
        inst = neo4j_local.TEST_INSTANCE
        faults = _faults(server, ledger, SLICE_S, lambda: neo4j_local.stop(inst),
                         lambda: neo4j_local.start(inst)) if managed else None
        took = w.run(SLICE_S, faults)
        print("\n" + report(ledger, took))
    finally:
        server.stop()
    problems = check(raw, w, faults=managed)
    assert problems == []
    ops = sum(len(v) for v in ledger.latencies.values())
    assert ops > 40, f"only {ops} operations in {took:.0f} s: the slice measured nothing"
    for op in ("save", "update", "load", "search"):
        assert ledger.statuses.get((op, 200), 0) + ledger.statuses.get((op, 201), 0) > 0, f"no {op} succeeded"
