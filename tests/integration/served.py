"""The served process for the client, export and docs tests: the session-wide `served` fixture, one
`cognition serve` on a free port against the test Neo4j (tests/served.py is the one implementation, shared with
the concurrency tests and the soak). It uses the same Neo4j and bootstrap key as the in-process `client`
(tests/conftest.py), so a key minted through either works on both."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from graph.driver import Neo4jConfig
from tests.served import Served, free_port

__all__ = ["Served", "free_port", "served"]


@pytest.fixture(scope="session")
def served(neo4j_config: Neo4jConfig, client: TestClient, tmp_path_factory: pytest.TempPathFactory) -> Iterator[
        Served]:
    """`cognition serve` on a free port against the test Neo4j, for the whole session."""
    from tests.conftest import BOOTSTRAP_KEY

    s = Served(neo4j_config, BOOTSTRAP_KEY, log=tmp_path_factory.mktemp("served") / "serve.log")
    s.start()
    try:
        yield s
    finally:
        s.stop()
