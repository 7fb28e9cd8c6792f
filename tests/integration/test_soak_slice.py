"""A bounded slice of the soak (tests/soak.py; `make soak` runs it for 5 minutes) inside `make test`: the mixed
workload on one partition against the served process, with the test Neo4j restarted in the middle and the
served process killed (SIGKILL) and started again; then every invariant is checked against the graph."""

from __future__ import annotations

import os

import pytest
from neo4j import Driver

from service import neo4j_local
from tests.served import Served
from tests.soak import Ledger, Workload, _faults, check, report

SLICE_S = float(os.environ.get("COGNITION_SOAK_SLICE_S", "30"))


@pytest.mark.neo4j_restart
def test_a_soak_slice_with_faults_keeps_every_invariant(served: Served, raw: Driver) -> None:
    """On the session's served process (this test runs with the other restarts, after every other test): it is
    SIGKILLed and started again in the middle."""
    managed = not os.environ.get("COGNITION_TEST_NEO4J_URI")  # an outside server is not ours to restart
    ledger = Ledger()
    w = Workload(served, ledger)
    inst = neo4j_local.TEST_INSTANCE
    faults = _faults(served, ledger, SLICE_S, lambda: neo4j_local.stop(inst),
                     lambda: neo4j_local.start(inst)) if managed else None
    took = w.run(SLICE_S, faults)
    print("\n" + report(ledger, took))
    assert served.wait_ready(60.0)  # up again after the SIGKILL: the session's teardown stops it
    problems = check(raw, w, faults=managed)
    assert problems == []
    ops = sum(len(v) for v in ledger.latencies.values())
    assert ops > 40, f"only {ops} operations in {took:.0f} s: the slice measured nothing"
    for op in ("save", "update", "load", "search"):
        assert ledger.statuses.get((op, 200), 0) + ledger.statuses.get((op, 201), 0) > 0, f"no {op} succeeded"
