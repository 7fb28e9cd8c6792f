"""Health reflects Neo4j: 200 while it answers, 503 while it is stopped, 200 again after it returns.
(Named to run last: it stops the throwaway server.)"""

from __future__ import annotations

import os
import time

import pytest
from fastapi.testclient import TestClient

from service import neo4j_local


@pytest.mark.skipif(bool(os.environ.get("COGNITION_TEST_NEO4J_URI")), reason="needs the managed test instance")
def test_health_follows_neo4j(client: TestClient) -> None:
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json() == {"status": "ok", "neo4j": "up"}
    inst = neo4j_local.TEST_INSTANCE
    assert neo4j_local.stop(inst)
    try:
        r = client.get("/healthz")
        assert r.status_code == 503 and r.json()["code"] == "neo4j_unavailable"
    finally:
        neo4j_local.start(inst)
    deadline = time.monotonic() + 60
    while client.get("/healthz").status_code != 200:
        assert time.monotonic() < deadline, "the service did not recover after Neo4j came back"
        time.sleep(0.5)
