"""The start-up warm-up (service/usecases/warmup.py): it runs the context and search queries on a scope no one holds, so
their plans are made before an agent's first call. It must change nothing, and it must send the
parameters a real call sends, or Neo4j would cache its plan under another key and the first call would plan
again (Neo4j keys a plan by the query text and each parameter's type, and by a size class of each string and
list parameter; a map's contents do not enter the key)."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver

from graph.model import Family
from service.http.app import create_app
from service.search import ranking
from service.settings import Settings
from service.usecases import context, warmup
from service.usecases.artifacts import search
from service.usecases.runtime import Runtime
from tests.conftest import OnRuntime


def _size_class(n: int) -> str:
    return "0" if n == 0 else "1-2" if n <= 2 else "3-9" if n <= 9 else "10+"


def _shape(params: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """What of the parameters enters Neo4j's plan-cache key: each one's type, and the size class of a string or
    list (a map's contents do not enter it)."""
    return {k: (type(v).__name__, _size_class(len(v)) if isinstance(v, (str, list)) else "")
            for k, v in params.items()}


def _save(client: TestClient, scope: dict[str, Any], content: str) -> None:
    r = client.post(f"/v1/scopes/{scope['id']}/memories", json={"kind": "semantic", "tier": "agent",
                                                                 "content": content, "subject": content})
    assert r.status_code == 201, r.text


def _state(raw: Driver) -> dict[str, Any]:
    records, _, _ = raw.execute_query(
        "MATCH (n) WHERE NOT n:EventLog "  # the feed's counters: the sequencer makes them in the background
        "WITH count(n) AS nodes, sum(coalesce(n.recall_count, 0)) AS recalls "
        "RETURN nodes, recalls, COUNT { ()-[]->() } AS rels, COUNT { (:Event) } AS events, "
        "COUNT { (:Scope) } AS scopes")
    return dict(records[0])


def test_the_warm_up_runs_both_queries_and_changes_nothing(on_runtime: OnRuntime, raw: Driver,
                                                                    scope: dict[str, Any],
                                                                    client: TestClient) -> None:
    _save(client, scope, "the user prefers tea in the morning")
    before, loads, copies = _state(raw), on_runtime.indexes.loads, set(on_runtime.indexes._copies)
    took = on_runtime(warmup.warm_plans)
    assert set(took) == {"context", "search"}  # a failing call stops the warm-up before its name is recorded
    assert _state(raw) == before  # no node, relationship, event or recall more or less
    assert on_runtime.indexes.loads == loads and set(on_runtime.indexes._copies) == copies  # no scope copy built


def test_the_warm_up_sends_the_parameters_an_agents_calls_send(on_runtime: OnRuntime, scope: dict[str, Any],
                                                              client: TestClient,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    for text in ("the user prefers tea in the morning", "the user flew to Lisbon in May", "tea with no sugar"):
        _save(client, scope, text)
    sent: dict[str, list[dict[str, Any]]] = {"context": [], "search": []}
    assemble_tx, hybrid_search = context.assemble_tx, ranking.hybrid_search

    async def context_spy(tx: Any, **params: Any) -> Any:
        sent["context"].append(params)
        return await assemble_tx(tx, **params)

    async def search_spy(tx: Any, **params: Any) -> Any:
        sent["search"].append(params)
        return await hybrid_search(tx, **params)

    monkeypatch.setattr(context, "assemble_tx", context_spy)
    monkeypatch.setattr(ranking, "hybrid_search", search_spy)
    on_runtime(warmup.warm_plans)
    warm = {name: list(calls) for name, calls in sent.items()}  # a transaction the driver retried runs twice
    assert all(warm.values())
    for calls in sent.values():
        calls.clear()

    async def agent(rt: Runtime) -> None:  # the calls an agent makes: context with and without a query, a search
        await context.assemble(rt, scope["id"], surface="all", query="what does the user drink")
        await context.assemble(rt, scope["id"], surface="cold_start")
        hits = await search(rt, scope["id"], [Family.memory], query="tea")
        assert hits  # ranked through the scope index, ids in $q

    on_runtime(agent)
    for name in ("context", "search"):
        assert sent[name]
        assert {str(_shape(c)) for c in sent[name] + warm[name]} == {str(_shape(warm[name][0]))}, name
    # the values differ (ids the scope index ranked, none for the probe); the cache key does not
    assert sent["context"][0]["q"]["ft_ids"] and not warm["context"][0]["q"]["ft_ids"]
    assert sent["search"][0]["q"]["ft_ids"] and warm["search"][0]["q"]["ft_ids"] is None


class _Records(logging.Handler):
    """The warm-up's log records (its logger does not propagate: its line goes to the JSON log only)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def wait_for(self, text: str, timeout: float = 120.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(text in r.getMessage() for r in self.records):
                return True
            time.sleep(0.1)
        return False


@pytest.fixture
def warmup_log() -> Iterator[_Records]:
    logger, handler = logging.getLogger("cognition.warmup"), _Records()
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def test_the_app_warms_its_plans_in_the_background_and_a_shutdown_does_not_wait(settings: Settings,
                                                                                 warmup_log: _Records) -> None:
    with TestClient(create_app(settings)) as c:
        assert c.get("/readyz").status_code == 200  # readiness does not wait for the warm-up
        assert warmup_log.wait_for("plans warmed: context")
    warmup_log.records.clear()
    with TestClient(create_app(settings)) as c:  # shut down at once: cancelled or finished, never a warning
        assert c.get("/healthz").status_code == 200
    assert not [r for r in warmup_log.records if r.levelno >= logging.WARNING]
    warmup_log.records.clear()
    off = settings.model_copy(update={"warm_plans": False})
    with TestClient(create_app(off)) as c:
        assert c.get("/healthz").status_code == 200
        time.sleep(1.0)
    assert not warmup_log.records
