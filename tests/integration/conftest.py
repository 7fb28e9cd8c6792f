"""Fixtures against a real Neo4j: the throwaway `test` instance of the managed local server (ports 17687/17474,
data wiped at the start of a run), or the server named by COGNITION_TEST_NEO4J_URI / COGNITION_TEST_NEO4J_PASSWORD.

Servers: `client` (the app in process, FastAPI's TestClient) and `served` (`cognition serve` in a subprocess, for
the whole session, tests/served.py), on the same Neo4j with the same bootstrap key, so a key minted through one
works on both. Tests marked `neo4j_restart` (they stop or restart Neo4j) run after every other test."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver, GraphDatabase

from graph.driver import Graph, Neo4jConfig
from service import neo4j_local
from service.http.app import create_app
from service.settings import Settings
from tests.conftest import BOOTSTRAP_KEY, MintKey, OnGraph, OnRuntime, unique
from tests.served import Served

# Webhook retries in tests: small backoff, short timeouts and leases, for the in-process app and every served
# process alike (they inherit this environment), whichever replica's worker delivers.
for _name, _value in (("COGNITION_WEBHOOK_POLL_S", "0.2"), ("COGNITION_WEBHOOK_TIMEOUT_S", "1"),
                      ("COGNITION_WEBHOOK_BACKOFF_S", "0.2"), ("COGNITION_WEBHOOK_BACKOFF_MAX_S", "1"),
                      ("COGNITION_WEBHOOK_LEASE_S", "5")):
    os.environ.setdefault(_name, _value)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests that stop or restart Neo4j go last (in their collected order): nothing after them meets a Neo4j
    that has just come back."""
    items.sort(key=lambda item: item.get_closest_marker("neo4j_restart") is not None)


@pytest.fixture(scope="session")
def neo4j_config() -> Iterator[Neo4jConfig]:
    uri = os.environ.get("COGNITION_TEST_NEO4J_URI")
    if uri:
        yield Neo4jConfig(uri, os.environ.get("COGNITION_TEST_NEO4J_USER", "neo4j"),
                          os.environ["COGNITION_TEST_NEO4J_PASSWORD"])
        return
    inst = neo4j_local.TEST_INSTANCE
    password = neo4j_local.start(inst, fresh=True)
    try:
        yield Neo4jConfig(inst.uri, "neo4j", password)
    finally:
        if not os.environ.get("COGNITION_KEEP_TEST_NEO4J"):
            neo4j_local.stop(inst)


@pytest.fixture(scope="session")
def settings(neo4j_config: Neo4jConfig) -> Settings:
    return Settings(neo4j_uri=neo4j_config.uri, neo4j_user=neo4j_config.user,
                    neo4j_password=neo4j_config.password, neo4j_database=neo4j_config.database,
                    COGNITION_BOOTSTRAP_KEY=BOOTSTRAP_KEY)


@pytest.fixture(scope="session")
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as c:
        c.headers["Authorization"] = f"Bearer {BOOTSTRAP_KEY}"
        yield c


@pytest.fixture(scope="session")
def served(neo4j_config: Neo4jConfig, client: TestClient, tmp_path_factory: pytest.TempPathFactory) -> Iterator[
        Served]:
    """`cognition serve` on a free port against the test Neo4j, for the whole session (`client` first: the app's
    start-up has applied the schema)."""
    s = Served(neo4j_config, BOOTSTRAP_KEY, log=tmp_path_factory.mktemp("served") / "serve.log")
    s.start()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture(scope="session")
def server(served: Served) -> Served:
    """The served process under the name the concurrency tests use."""
    return served


@pytest.fixture
def mint_key(client: TestClient) -> MintKey:
    """Mint an API key: `mint_key("auditor", ["acme"])` → the secret (made by the bootstrap operator)."""

    def mint(role: str = "agent", namespaces: list[str] | tuple[str, ...] = ("*",)) -> str:
        r = client.post("/v1/keys", json={"role": role, "namespaces": list(namespaces)})
        assert r.status_code == 201, r.text
        key: str = r.json()["key"]
        return key

    return mint


@pytest.fixture
def tenant(client: TestClient, mint_key: MintKey) -> dict[str, Any]:
    """A fresh namespace with one scope and a key of each role holding (only) that namespace."""
    ns = unique("ns")
    r = client.post("/v1/scopes", json={"namespace": ns, "cognitive_owner": unique("owner"), "name": "main"})
    assert r.status_code == 201, r.text
    return {"namespace": ns, "scope": r.json(),
            "keys": {role: mint_key(role, [ns]) for role in ("agent", "operator", "auditor")}}


@pytest.fixture(scope="session")
def raw(neo4j_config: Neo4jConfig, client: TestClient) -> Iterator[Driver]:
    """A plain driver for raw Cypher, as an operator in Neo4j Browser would type it (schema applied)."""
    with GraphDatabase.driver(neo4j_config.uri, auth=(neo4j_config.user, neo4j_config.password)) as d:
        yield d


@pytest.fixture
def on_graph(neo4j_config: Neo4jConfig) -> OnGraph:
    """Run a coroutine against a Graph of its own (own driver, own event loop): for calling the graph layer
    directly."""

    def run(fn: Callable[[Graph], Awaitable[Any]]) -> Any:
        async def main() -> Any:
            graph = Graph.connect(neo4j_config)
            try:
                return await fn(graph)
            finally:
                await graph.close()

        return asyncio.run(main())

    return run


@pytest.fixture
def on_runtime(neo4j_config: Neo4jConfig) -> OnRuntime:
    return OnRuntime(neo4j_config)


@pytest.fixture
def scope(client: TestClient) -> dict[str, Any]:
    """A fresh scope per test, so tests never see each other's artifacts."""
    r = client.post("/v1/scopes", json={"namespace": unique("ns"), "cognitive_owner": unique("owner"),
                                        "name": "test"})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body
