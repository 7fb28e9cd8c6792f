"""Scopes: created with exactly two kernels, read back, deleted with everything they own."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from fastapi.testclient import TestClient
from neo4j import Driver

from graph import scopes
from tests.conftest import OnGraph, unique


def _count(raw: Driver, cypher: str, **params: Any) -> int:
    return int(raw.execute_query(cypher, params).records[0][0])


def test_create_scope_creates_exactly_two_kernels(client: TestClient, raw: Driver) -> None:
    body = {"namespace": unique("ns"), "cognitive_owner": "alice", "name": "main"}
    r = client.post("/v1/scopes", json=body)
    assert r.status_code == 201
    scope = r.json()
    assert {k: scope[k] for k in body} == body
    assert scope["agent_kernel_id"] != scope["world_kernel_id"]
    kernels = raw.execute_query(
        "MATCH (k:Artifact {scope_id: $id}) RETURN k.family AS f, labels(k) AS l ORDER BY f", id=scope["id"]).records
    assert [k["f"] for k in kernels] == ["agent_kernel", "world_kernel"]
    assert "AgentKernel" in kernels[0]["l"] and "WorldKernel" in kernels[1]["l"]
    assert _count(raw, "MATCH (e:Event {op: 'scope_create', scope_id: $id}) RETURN count(e)", id=scope["id"]) == 1


def test_get_scope_and_unknown_scope(client: TestClient, scope: dict[str, Any]) -> None:
    r = client.get(f"/v1/scopes/{scope['id']}")
    assert r.status_code == 200 and r.json() == scope
    r = client.get("/v1/scopes/00000000-0000-0000-0000-000000000000")
    assert r.status_code == 404 and r.json()["code"] == "scope_not_found"


def test_same_triple_twice_is_a_conflict(client: TestClient) -> None:
    body = {"namespace": unique("ns"), "cognitive_owner": "bob", "name": "main"}
    assert client.post("/v1/scopes", json=body).status_code == 201
    r = client.post("/v1/scopes", json=body)
    assert r.status_code == 409 and r.json()["code"] == "scope_exists"


def test_bad_scope_input_is_a_named_422(client: TestClient) -> None:
    r = client.post("/v1/scopes", json={"namespace": "", "cognitive_owner": "x", "name": "y"})
    assert r.status_code == 422 and r.json()["field"] == "namespace"
    r = client.post("/v1/scopes", json={"namespace": "a", "cognitive_owner": "x"})
    assert r.status_code == 422 and r.json()["field"] == "name"
    r = client.post("/v1/scopes", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["code"] == "malformed_json"


def test_delete_scope_removes_everything_it_owns_in_batches(client: TestClient, raw: Driver,
                                                            scope: dict[str, Any], on_graph: OnGraph) -> None:
    sid = scope["id"]
    # 2,500 artifacts with edges and a tombstone, written raw; deleted with a small batch size below.
    raw.execute_query(
        "UNWIND range(1, 2500) AS i CREATE (:Artifact:Memory {id: $sid + '-m' + i, scope_id: $sid, "
        "family: 'memory', status: 'active', content: 'x' + i})", sid=sid)
    raw.execute_query(
        "MATCH (a:Artifact {scope_id: $sid}) WHERE a.id ENDS WITH '0' MATCH (b:Artifact {id: a.id + '1'}) "
        "CREATE (b)-[:DEPENDS_ON]->(a)", sid=sid)
    raw.execute_query("CREATE (:Tombstone {id: $sid + '-t', scope_id: $sid})", sid=sid)
    other = client.post("/v1/scopes", json={"namespace": unique("ns"), "cognitive_owner": "o", "name": "n"}).json()

    deleted = on_graph(lambda g: scopes.delete(g, sid, actor="test", now=datetime.now(UTC), batch=500))
    assert deleted == 2500 + 1 + 2 + 2  # artifacts, tombstone, kernels, kernel revisions
    assert _count(raw, "MATCH (n) WHERE n.scope_id = $sid AND NOT n:Event RETURN count(n)", sid=sid) == 0
    assert _count(raw, "MATCH (s:Scope {id: $sid}) RETURN count(s)", sid=sid) == 0
    ev = raw.execute_query("MATCH (e:Event {op: 'scope_delete', scope_id: $sid}) RETURN e", sid=sid).records
    assert len(ev) == 1 and ev[0]["e"]["deleted"] == 2505
    # the other scope is untouched
    assert client.get(f"/v1/scopes/{other['id']}").status_code == 200
    assert client.get(f"/v1/scopes/{sid}").status_code == 404


def test_delete_scope_over_http(client: TestClient, scope: dict[str, Any]) -> None:
    r = client.delete(f"/v1/scopes/{scope['id']}")
    assert r.status_code == 200 and r.json() == {"id": scope["id"], "deleted": 4}
    assert client.get(f"/v1/scopes/{scope['id']}").status_code == 404
    assert client.delete(f"/v1/scopes/{scope['id']}").status_code == 404
