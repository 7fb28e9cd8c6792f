"""Test fixtures. Integration tests run against a real Neo4j: the throwaway `test` instance of the managed
local server (ports 17687/17474, data wiped at the start of a run), or the server named by
COGNITION_TEST_NEO4J_URI / COGNITION_TEST_NEO4J_PASSWORD."""

from __future__ import annotations

import asyncio
import os
import secrets
import uuid
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver, GraphDatabase

from graph.driver import Graph, Neo4jConfig
from service import neo4j_local
from service.http.app import create_app
from service.search.scope_index import ScopeIndexes
from service.settings import Settings
from service.usecases.runtime import Runtime
from tests.integration.served import served  # noqa: F401  (the served-process fixture, for any test)


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


# The first operator key (holds every namespace), installed by the app at start-up; `client` sends it.
BOOTSTRAP_KEY = "cog_test_" + secrets.token_urlsafe(24)


def bearer(key: str) -> dict[str, str]:
    """Headers that make one request as another key: `client.get(url, headers=bearer(key))`."""
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture(scope="session")
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as c:
        c.headers["Authorization"] = f"Bearer {BOOTSTRAP_KEY}"
        yield c


MintKey = Callable[..., str]


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


OnGraph = Callable[[Callable[[Graph], Awaitable[Any]]], Any]


@pytest.fixture
def on_graph(neo4j_config: Neo4jConfig) -> OnGraph:
    """Run a coroutine against a Graph of its own (own driver, own event loop): for calling the graph and
    service layers directly, as a Python caller would."""

    def run(fn: Callable[[Graph], Awaitable[Any]]) -> Any:
        async def main() -> Any:
            graph = Graph.connect(neo4j_config)
            try:
                return await fn(graph)
            finally:
                await graph.close()

        return asyncio.run(main())

    return run


class OnRuntime:
    """Run a use case against a runtime of its own (own driver, own event loop), as a Python caller would:
    `on_runtime(lambda rt: use.save(rt, …))`. The scope copies (`indexes`) live for the whole test, as they live
    for a process; `**fields` set the runtime's others (`embedder=…`)."""

    def __init__(self, cfg: Neo4jConfig) -> None:
        self.cfg = cfg
        self.indexes = ScopeIndexes()

    def __call__(self, fn: Callable[[Runtime], Awaitable[Any]], **fields: Any) -> Any:
        async def main() -> Any:
            graph = Graph.connect(self.cfg)
            try:
                return await fn(Runtime(graph, indexes=self.indexes, **fields))
            finally:
                await graph.close()

        return asyncio.run(main())


@pytest.fixture
def on_runtime(neo4j_config: Neo4jConfig) -> OnRuntime:
    return OnRuntime(neo4j_config)


def unique(prefix: str = "t") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def scope(client: TestClient) -> dict[str, Any]:
    """A fresh scope per test, so tests never see each other's artifacts."""
    r = client.post("/v1/scopes", json={"namespace": unique("ns"), "cognitive_owner": unique("owner"),
                                        "name": "test"})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


@pytest.fixture(scope="session")
def server(request: pytest.FixtureRequest) -> Any:
    """The served process (tests/served.py) under the name the concurrency tests use: one process per session."""
    return request.getfixturevalue("served")
