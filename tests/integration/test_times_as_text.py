"""The read paths that send an artifact's three times as ISO-8601 text (cypher/fragments/artifact_row.cypher: load
by id, list, get many, explicit search, the context call) answer exactly what a read that hydrates Neo4j DateTimes
(artifact/get.cypher) answers: the same instants and offsets, the same public JSON, for times written by the
service and for times an operator wrote in Browser with nanoseconds and a named zone."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from fastapi.testclient import TestClient
from neo4j import Driver

import cypher
from graph import artifacts as repo
from graph.driver import Graph
from graph.model import Artifact, Family
from service.http.routes.artifacts import public
from service.usecases import artifacts as use
from service.usecases import context as ctx_use
from service.usecases.runtime import Runtime
from tests.conftest import OnGraph, OnRuntime

# Written as an operator might in Browser: nanoseconds, a named zone, an offset that is not UTC.
OPERATOR_TIMES = {
    "created_at": "2026-01-02T03:04:05.123456789+01:00[Europe/Berlin]",
    "updated_at": "2026-01-02T03:04:05.0000015Z",
    "accessed_at": "2026-01-02T03:04:59.999999999+05:30",
}
TIMES = tuple(OPERATOR_TIMES)


def test_load_search_and_context_read_the_times_as_text() -> None:
    for name in ("artifact/load", "artifact/list", "artifact/get_many", "search/hybrid", "context/assemble"):
        text = cypher.compose(name)
        assert all(f"{k}: toString(ap.{k})" in text for k in TIMES), name


def _save(client: TestClient, sid: str) -> tuple[str, str]:
    word = "qz" + uuid.uuid4().hex[:12]  # a word no other row holds
    r = client.post(f"/v1/scopes/{sid}/memories",
                    json={"kind": "fact", "tier": "agent", "content": f"the locker code is {word}"})
    assert r.status_code == 201, r.text
    return r.json()["id"], word


def _hydrated(on_graph: OnGraph, sid: str, id: str) -> Artifact:
    """The artifact through artifact/get.cypher, whose times the driver hydrates as DateTimes."""
    async def go(graph: Graph) -> Artifact:
        rec = await graph.read(repo.get, scope_id=sid, id=id)
        assert not isinstance(rec["artifact"]["created_at"], str)
        return Artifact.from_node(rec["artifact"])
    art: Artifact = on_graph(go)
    return art


def _as_text(on_runtime: OnRuntime, sid: str, id: str, word: str) -> dict[str, Artifact]:
    async def go(rt: Runtime) -> dict[str, Artifact]:
        hits = await use.search_ranked(rt, sid, [Family.memory], query=word, limit=5, recall=False)
        assert [h.artifact["id"] for h in hits] == [id]
        assert all(isinstance(hits[0].artifact[k], datetime) for k in TIMES)  # the diagnostics row is native too
        [many] = await rt.graph.read(repo.get_many, scope_id=sid, ids=[id])
        assert all(isinstance(many[k], datetime) for k in TIMES)
        # Recalls from here on: accessed_at and recall_count move on.
        ctx = await ctx_use.assemble(rt, sid, surface="all", query=word)
        [in_context] = [a for a in ctx.arms["relevant_memories"] if a.id == id]
        loaded = await use.load(rt, sid, id, [Family.memory])
        return {"search": Artifact.from_node(hits[0].artifact), "get_many": Artifact.from_node(many),
                "context": in_context, "load": loaded}
    got: dict[str, Artifact] = on_runtime(go)
    return got


def _listed(client: TestClient, sid: str, id: str) -> dict[str, Any]:
    """The record as the list route answers it."""
    r = client.get(f"/v1/scopes/{sid}/memories", params={"limit": 500})
    assert r.status_code == 200, r.text
    [row] = [x for x in r.json()["items"] if x["id"] == id]
    out: dict[str, Any] = row
    return out


def _json(art: Artifact) -> dict[str, Any]:
    out: dict[str, Any] = public(art).model_dump(mode="json")
    return out


def test_times_read_as_text_equal_the_hydrated_ones(scope: dict[str, Any], client: TestClient,
                                                    on_graph: OnGraph, on_runtime: OnRuntime) -> None:
    sid = scope["id"]
    id, word = _save(client, sid)
    before = _hydrated(on_graph, sid, id)
    got = _as_text(on_runtime, sid, id, word)
    assert got["search"] == got["get_many"] == before  # recall=False: nothing changed, the whole record is equal
    for path in ("context", "load"):  # recalls: accessed_at (and recall_count) move on, the rest is equal
        assert {k: getattr(got[path], k) for k in ("created_at", "updated_at")} == \
               {k: getattr(before, k) for k in ("created_at", "updated_at")}, path
    after = _hydrated(on_graph, sid, id)
    assert got["load"] == after  # the last recall: what load answered is what the graph holds
    assert _listed(client, sid, id) == _json(after)
    r = client.get(f"/v1/scopes/{sid}/memories/{id}")  # a recall too
    assert r.status_code == 200, r.text
    assert r.json() == _json(_hydrated(on_graph, sid, id))


def test_times_an_operator_wrote_with_nanoseconds_and_a_named_zone_read_the_same(
        scope: dict[str, Any], client: TestClient, raw: Driver, on_graph: OnGraph, on_runtime: OnRuntime) -> None:
    sid = scope["id"]
    id, word = _save(client, sid)
    raw.execute_query("MATCH (a:Artifact {id: $id}) SET a.created_at = datetime($t.created_at), "
                      "a.updated_at = datetime($t.updated_at), a.accessed_at = datetime($t.accessed_at)",
                      id=id, t=OPERATOR_TIMES)
    before = _hydrated(on_graph, sid, id)
    assert before.created_at.utcoffset() is not None and before.created_at.microsecond == 123456
    assert _listed(client, sid, id) == _json(before)
    got = _as_text(on_runtime, sid, id, word)
    assert got["search"] == got["get_many"] == before
    offsets = {k: getattr(before, k).utcoffset() for k in TIMES}
    assert {k: getattr(got["search"], k).utcoffset() for k in TIMES} == offsets
    for path in ("context", "load"):
        assert got[path].created_at == before.created_at and got[path].updated_at == before.updated_at, path
    r = client.get(f"/v1/scopes/{sid}/memories/{id}")
    assert r.status_code == 200, r.text
    assert r.json() == _json(_hydrated(on_graph, sid, id))
