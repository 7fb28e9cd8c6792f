"""Read-your-writes across replicas with `Cognition-Bookmark` (service/http/causal.py), and a routing (`neo4j://`)
URI, on the single test server: a write's answer carries its bookmark, a request that sends it back to another
replica (here: a second `cognition serve` connected through `neo4j://`) is answered after that write, a value the
database did not issue is a 422, and the Python client carries the newest bookmark on every request."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from cognition.client import Cognition
from graph.driver import Neo4jConfig
from tests.conftest import BOOTSTRAP_KEY, unique
from tests.served import Served

HEADER = "Cognition-Bookmark"


@pytest.fixture(scope="module")
def routed(neo4j_config: Neo4jConfig, served: Served, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A second replica, its driver given the routing scheme (`neo4j://`, as for a cluster or the managed service)."""
    uri = neo4j_config.uri.replace("bolt://", "neo4j://", 1)
    assert uri.startswith("neo4j://")
    s = Served(Neo4jConfig(uri, neo4j_config.user, neo4j_config.password), BOOTSTRAP_KEY,
               log=tmp_path_factory.mktemp("routed") / "serve.log")
    s.start()
    try:
        yield s
    finally:
        s.stop()


def _scope(c: httpx.Client) -> dict[str, Any]:
    r = c.post("/v1/scopes", json={"namespace": unique("ns"), "cognitive_owner": "o", "name": "s"})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def test_a_write_answers_its_bookmark_and_a_read_does_not(served: Served) -> None:
    with served.client() as c:
        s = _scope(c)
        assert c.get(f"/v1/scopes/{s['id']}").headers.get(HEADER) is None
        r = c.post(f"/v1/scopes/{s['id']}/memories", json={"kind": "fact", "tier": "agent",
                                                            "content": "the build runs on Fridays"})
        assert r.status_code == 201
        first = r.headers.get(HEADER)
        assert first
        path = f"/v1/scopes/{s['id']}/memories/{r.json()['id']}"
        r = c.patch(path, json={"content": "on Thursdays now"}, headers={"If-Match": c.get(path).headers["ETag"]})
        assert r.status_code == 200 and r.headers.get(HEADER) not in (None, first)  # a newer write, a newer mark
        # a scope is a write too
        assert c.post("/v1/scopes", json={"namespace": unique("ns"), "cognitive_owner": "o", "name": "t"}
                      ).headers.get(HEADER)


def test_another_replica_through_a_routing_uri_reads_the_write_the_bookmark_names(served: Served,
                                                                                   routed: Served) -> None:
    with served.client() as a, routed.client() as b:
        assert b.get("/readyz").status_code == 200
        s = _scope(a)
        for i in range(20):  # each write on one replica, read at once on the other with its bookmark
            w = a.post(f"/v1/scopes/{s['id']}/memories", json={"kind": "fact", "tier": "agent",
                                                                "content": f"release train {i} leaves at noon"})
            assert w.status_code == 201
            mark = {HEADER: w.headers[HEADER]}
            got = b.get(f"/v1/scopes/{s['id']}/memories/{w.json()['id']}", headers=mark)
            assert got.status_code == 200, got.text
            hits = b.post(f"/v1/scopes/{s['id']}/memories/search", headers=mark,
                          json={"query": f"release train {i}", "limit": 3}).json()["items"]
            assert w.json()["id"] in [h["id"] for h in hits]
        # and the other way round, a write through the routing driver
        w = b.post(f"/v1/scopes/{s['id']}/memories", json={"kind": "fact", "tier": "agent", "content": "routed"})
        assert w.status_code == 201 and w.headers.get(HEADER)
        assert a.get(f"/v1/scopes/{s['id']}/memories/{w.json()['id']}",
                     headers={HEADER: w.headers[HEADER]}).status_code == 200


@pytest.mark.parametrize("value", ["not-a-bookmark", "FB:kcwQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=="])
def test_a_bookmark_the_database_did_not_issue_is_a_named_422(served: Served, value: str) -> None:
    with served.client() as c:
        s = _scope(c)
        r = c.get(f"/v1/scopes/{s['id']}", headers={HEADER: value})
        assert r.status_code == 422, r.text
        assert r.json()["code"] == "invalid_bookmark"


def test_the_client_sends_the_newest_bookmark_it_was_given(served: Served, routed: Served) -> None:
    sent: list[str | None] = []

    def record(request: httpx.Request) -> None:
        sent.append(request.headers.get(HEADER))

    with Cognition(served.url, BOOTSTRAP_KEY) as client:
        client._core.http.event_hooks["request"].append(record)  # what went out, as the server saw it
        scope = client.scopes.create(namespace=unique("ns"), cognitive_owner="o", name="c")
        assert client.bookmark and sent == [None]
        saved = client.memories(scope.id).save(kind="fact", tier="agent", content="the build runs on Fridays")
        assert sent[-1] is not None and client.bookmark != sent[-1]  # sent the scope's, got the save's
        before = client.bookmark
        client.memories(scope.id).get(saved.id)  # a load counts a recall: a write, with a bookmark of its own
        assert sent[-1] == before and client.bookmark not in (None, before)
    with Cognition(routed.url, BOOTSTRAP_KEY) as other:  # another replica, handed the first client's bookmark
        other._core.bookmark.value = client.bookmark
        assert other.memories(scope.id).get(saved.id).id == saved.id
