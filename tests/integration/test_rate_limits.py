"""Rate limits (service/usecases/limits.py) against served processes with limits set, on the test Neo4j: a key's
burst then 429 `rate_limited` with `Retry-After` and the draft-11 `RateLimit` / `RateLimit-Policy` fields; reads and
writes counted apart; per key and per namespace; MCP tool calls over HTTP counted too; service again after
`Retry-After`, and the Python client waiting it out by itself; and two replicas on one Neo4j sharing each limit.

Scopes and keys are made through the in-process app (no limits), so only the requests under test spend tokens. The
bounds allow for the tokens that refill while a test runs (rate × elapsed): a count, never a time, is asserted."""

from __future__ import annotations

import math
import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from cognition.client import Cognition
from graph.driver import Neo4jConfig
from tests.conftest import MintKey, unique
from tests.integration.test_mcp_http import call
from tests.served import Served

# Caps (rate × burst seconds): key writes 4, key reads 10, namespace writes 6, namespace reads 15.
KEY_WRITES, KEY_READS, NS_WRITES, NS_READS, BURST_S = 0.2, 0.5, 0.3, 0.75, 20.0
LIMITS = {"COGNITION_RATE_KEY_WRITES": str(KEY_WRITES), "COGNITION_RATE_KEY_READS": str(KEY_READS),
          "COGNITION_RATE_NAMESPACE_WRITES": str(NS_WRITES), "COGNITION_RATE_NAMESPACE_READS": str(NS_READS),
          "COGNITION_RATE_BURST_S": str(BURST_S), "COGNITION_RATE_HEARTBEAT_S": "1", "COGNITION_WARM_PLANS": "false"}


def cap(rate: float) -> int:
    return int(rate * BURST_S)


def start(neo4j_config: Neo4jConfig, served: Served, tmp: Any) -> Served:
    s = Served(neo4j_config, served.key, log=tmp / "serve.log", extra_env=LIMITS)
    s.start()
    return s


@pytest.fixture(scope="module")
def limited(neo4j_config: Neo4jConfig, served: Served, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    s = start(neo4j_config, served, tmp_path_factory.mktemp("limited"))
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture
def tenant(client: TestClient, mint_key: MintKey) -> dict[str, Any]:
    ns = unique("ns")
    scope = client.post("/v1/scopes", json={"namespace": ns, "cognitive_owner": "o", "name": "main"}).json()
    return {"namespace": ns, "scope": scope, "keys": [mint_key("agent", [ns]) for _ in range(2)]}


def save(s: Served, key: str, scope: dict[str, Any], i: int = 0) -> httpx.Response:
    return httpx.post(f"{s.url}/v1/scopes/{scope['id']}/memories", headers=s.headers(key), timeout=60,
                      json={"kind": "fact", "tier": "agent", "content": f"fact number {i}"})


def read(s: Served, key: str, scope: dict[str, Any]) -> httpx.Response:
    return httpx.get(f"{s.url}/v1/scopes/{scope['id']}/memories", headers=s.headers(key), timeout=60)


def refill(rate: float, since: float) -> int:
    """Tokens that may have come back since `since` (and one for the rounding)."""
    return math.ceil(rate * (time.monotonic() - since)) + 1


def assert_refused(r: httpx.Response, policy: str, quota: int, window: int) -> int:
    assert r.status_code == 429, r.text
    body = r.json()
    assert body["code"] == "rate_limited" and body["policy"] == policy, body
    wait = int(r.headers["Retry-After"])
    assert wait >= 1 and body["retry_after"] == wait
    assert r.headers["RateLimit-Policy"] == f'"{policy}";q={quota};w={window}'
    m = re.fullmatch(rf'"{policy}";r=0;t=(\d+)', r.headers["RateLimit"])
    assert m and int(m.group(1)) == wait
    return wait


def test_burst_then_429_with_headers_reads_counted_apart(limited: Served, tenant: dict[str, Any]) -> None:
    key, scope = tenant["keys"][0], tenant["scope"]
    t0 = time.monotonic()
    answers = [save(limited, key, scope, i) for i in range(8)]
    ok = [r.status_code for r in answers].count(201)
    assert [r.status_code for r in answers[:cap(KEY_WRITES)]] == [201] * cap(KEY_WRITES)  # the burst
    assert cap(KEY_WRITES) <= ok <= cap(KEY_WRITES) + refill(KEY_WRITES, t0), [r.status_code for r in answers]
    assert_refused(next(r for r in answers if r.status_code != 201), "key-write", cap(KEY_WRITES),
                   int(BURST_S))
    # the key's writes are spent; its reads are not
    t1 = time.monotonic()
    reads = [read(limited, key, scope).status_code for _ in range(cap(KEY_READS) + 4)]
    assert reads[:cap(KEY_READS)] == [200] * cap(KEY_READS)
    assert reads.count(200) <= cap(KEY_READS) + refill(KEY_READS, t1) and 429 in reads


def test_a_key_over_its_limit_is_refused_before_its_body_or_route(limited: Served, tenant: dict[str, Any]) -> None:
    """The front gate (service/http/limits.py `RateGate`): once a verified key's bucket is empty, its requests are
    429 before anything else is read — a body that is not JSON, a scope that does not exist — and the request log
    names the route template, never the path."""
    key, scope = tenant["keys"][0], tenant["scope"]
    answers = [save(limited, key, scope, i).status_code for i in range(cap(KEY_WRITES) + 2)]
    assert 429 in answers
    url = f"{limited.url}/v1/scopes/{scope['id']}/memories"
    r = httpx.post(url, headers={**limited.headers(key), "content-type": "application/json"}, content=b"{not json",
                   timeout=60)
    assert_refused(r, "key-write", cap(KEY_WRITES), int(BURST_S))
    r = httpx.post(f"{limited.url}/v1/scopes/{unique('nope')}/memories", headers=limited.headers(key), timeout=60,
                   json={"kind": "fact", "tier": "agent", "content": "x"})
    assert_refused(r, "key-write", cap(KEY_WRITES), int(BURST_S))
    # its reads, and another key, go on as before: a malformed body is answered by the route again
    assert read(limited, key, scope).status_code == 200
    other = tenant["keys"][1]
    r = httpx.post(url, headers={**limited.headers(other), "content-type": "application/json"}, content=b"{not json",
                   timeout=60)
    assert r.status_code == 422, r.text
    log = limited.log.read_text()
    assert '"route": "/v1/scopes/{scope_id}/memories", "status": 429' in log
    assert scope["id"] not in log


def test_per_namespace(limited: Served, tenant: dict[str, Any], mint_key: MintKey, client: TestClient) -> None:
    (a, b), scope = tenant["keys"], tenant["scope"]
    t0 = time.monotonic()
    first = [save(limited, a, scope, i).status_code for i in range(cap(KEY_WRITES))]
    assert first == [201] * cap(KEY_WRITES)
    second = [save(limited, b, scope, i) for i in range(cap(KEY_WRITES))]  # another key, the same namespace
    ok = [r.status_code for r in second].count(201)
    assert cap(NS_WRITES) - cap(KEY_WRITES) <= ok <= cap(NS_WRITES) - cap(KEY_WRITES) + refill(NS_WRITES, t0)
    assert_refused(next(r for r in second if r.status_code != 201), "namespace-write", cap(NS_WRITES), int(BURST_S))
    # a key of another namespace is not held back
    ns = unique("ns")
    other = client.post("/v1/scopes", json={"namespace": ns, "cognitive_owner": "o", "name": "main"}).json()
    k = mint_key("agent", [ns])
    assert [save(limited, k, other, i).status_code for i in range(cap(KEY_WRITES))] == [201] * cap(KEY_WRITES)


def test_service_again_after_retry_after(limited: Served, tenant: dict[str, Any]) -> None:
    key, scope = tenant["keys"][0], tenant["scope"]
    answers = [save(limited, key, scope, i) for i in range(cap(KEY_WRITES) + 2)]
    refused = next(r for r in answers if r.status_code == 429)
    time.sleep(int(refused.headers["Retry-After"]))
    assert save(limited, key, scope, 99).status_code == 201
    # the Python client waits out a 429's Retry-After by itself
    while save(limited, key, scope).status_code == 201:
        pass
    with Cognition(limited.url, key, max_retries=3) as c:
        assert c.memories(scope["id"]).save(kind="fact", tier="agent", content="waited").revision == 1


def test_mcp_tool_calls_count(limited: Served, tenant: dict[str, Any]) -> None:
    key, scope = tenant["keys"][0], tenant["scope"]
    results = [call(limited.url, key, "save_memory", scope_id=scope["id"], kind="fact", tier="agent",
                    content=f"over mcp {i}") for i in range(cap(KEY_WRITES) + 2)]
    refused = [r.structured_content for r in results if r.is_error]
    assert refused and all(b is not None and b["code"] == "rate_limited" and b["status"] == 429 for b in refused)
    # and HTTP sees the same bucket spent
    assert save(limited, key, scope).status_code == 429


def test_two_replicas_share_each_limit(limited: Served, neo4j_config: Neo4jConfig, served: Served,
                                       tenant: dict[str, Any], tmp_path_factory: pytest.TempPathFactory,
                                       client: TestClient, mint_key: MintKey) -> None:
    second = start(neo4j_config, served, tmp_path_factory.mktemp("limited2"))
    try:
        time.sleep(3)  # both replicas beat (every second) and each sees two live
        a, scope = tenant["keys"][0], tenant["scope"]
        t0 = time.monotonic()
        # a balanced load: the key's requests alternate between the replicas; together they admit one limit
        answers = [save(limited if i % 2 else second, a, scope, i).status_code for i in range(4 * cap(KEY_WRITES))]
        assert cap(KEY_WRITES) <= answers.count(201) <= cap(KEY_WRITES) + refill(KEY_WRITES, t0), answers
        # each replica holds half: all of a key's requests on one replica get half the burst (another namespace,
        # whose bucket the requests above did not touch)
        ns = unique("ns")
        other = client.post("/v1/scopes", json={"namespace": ns, "cognitive_owner": "o", "name": "main"}).json()
        k = mint_key("agent", [ns])
        t1 = time.monotonic()
        one = [save(limited, k, other, i).status_code for i in range(cap(KEY_WRITES))]
        half = cap(KEY_WRITES) // 2
        assert half <= one.count(201) <= half + refill(KEY_WRITES / 2, t1), one  # one replica alone: the whole cap
    finally:
        second.stop()
