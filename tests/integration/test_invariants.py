"""INV-SCOPE-1..3 are enforced by Neo4j itself under the trigger scope guard: raw Cypher, as typed into Neo4j
Browser, is refused and leaves nothing behind. The service maps the same refusals to stable codes. A second kernel
of a kind is refused by a uniqueness constraint (under either guard) before the trigger sees it; the queries guard
is tried in tests/integration/test_scope_guard.py."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver
from neo4j.exceptions import ClientError

from tests.conftest import unique


def _new_scope(client: TestClient) -> dict[str, Any]:
    r = client.post("/v1/scopes", json={"namespace": unique("ns"), "cognitive_owner": "o", "name": "s"})
    assert r.status_code == 201
    body: dict[str, Any] = r.json()
    return body


def _memory(raw: Driver, scope_id: str) -> str:
    mid = unique("m")
    raw.execute_query("CREATE (:Artifact:Memory {id: $id, scope_id: $sid, family: 'memory', status: 'active'})",
                      id=mid, sid=scope_id)
    return mid


KERNEL_CONSTRAINT = "already exists with label"  # migration 0018: one kernel of a kind a scope


def _refused(raw: Driver, cypher: str, code: str, **params: Any) -> None:
    """Refused, with `code` (or, where `code` is "|"-separated, any of them) in the database's message."""
    with pytest.raises(ClientError) as info:
        raw.execute_query(cypher, params)
    assert any(c in str(info.value) for c in code.split("|")), str(info.value)


def test_cross_scope_relationship_is_refused_by_the_database(client: TestClient, raw: Driver) -> None:
    a, b = _new_scope(client), _new_scope(client)
    ma, mb = _memory(raw, a["id"]), _memory(raw, b["id"])
    for rel in ("DEPENDS_ON", "SUPPORTS", "DERIVED_FROM", "SUPERSEDES", "RELATES_TO", "ANY_TYPE"):
        _refused(raw, f"MATCH (x {{id: $a}}), (y {{id: $b}}) CREATE (x)-[:{rel}]->(y)", "cross_scope_reference",
                 a=ma, b=mb)
    assert raw.execute_query("MATCH ({id: $a})-[r]-() RETURN count(r)", a=ma).records[0][0] == 0
    # and a kernel is no exception
    _refused(raw, "MATCH (x {id: $a}), (y {id: $b}) CREATE (x)-[:DEPENDS_ON]->(y)", "cross_scope_reference",
             a=a["agent_kernel_id"], b=b["world_kernel_id"])


def test_whole_transaction_rolls_back(client: TestClient, raw: Driver) -> None:
    a, b = _new_scope(client), _new_scope(client)
    ma, mb = _memory(raw, a["id"]), _memory(raw, b["id"])
    fresh = unique("m")
    _refused(raw, "MATCH (x {id: $a}), (y {id: $b}) "
                  "CREATE (n:Artifact:Memory {id: $fresh, scope_id: $sid, family: 'memory'}) "
                  "CREATE (n)-[:SUPPORTS]->(x) CREATE (x)-[:DEPENDS_ON]->(y)",
             "cross_scope_reference", a=ma, b=mb, fresh=fresh, sid=a["id"])
    assert raw.execute_query("MATCH (n {id: $id}) RETURN count(n)", id=fresh).records[0][0] == 0


def test_same_scope_relationship_is_allowed(client: TestClient, raw: Driver) -> None:
    a = _new_scope(client)
    m1, m2 = _memory(raw, a["id"]), _memory(raw, a["id"])
    raw.execute_query("MATCH (x {id: $a}), (y {id: $b}) CREATE (x)-[:DEPENDS_ON]->(y)", a=m1, b=m2)
    assert raw.execute_query("MATCH ({id: $a})-[r:DEPENDS_ON]->({id: $b}) RETURN count(r)", a=m1, b=m2
                             ).records[0][0] == 1


def test_scope_id_never_changes(client: TestClient, raw: Driver) -> None:
    a, b = _new_scope(client), _new_scope(client)
    m = _memory(raw, a["id"])
    _refused(raw, "MATCH (x {id: $m}) SET x.scope_id = $other", "scope_id_immutable", m=m, other=b["id"])
    _refused(raw, "MATCH (x {id: $m}) REMOVE x.scope_id", "scope_id_immutable", m=m)
    _refused(raw, "MATCH (x {id: $k}) SET x.scope_id = $other", f"scope_id_immutable|{KERNEL_CONSTRAINT}",
             k=a["agent_kernel_id"], other=b["id"])
    assert raw.execute_query("MATCH (x {id: $m}) RETURN x.scope_id", m=m).records[0][0] == a["id"]


def test_second_kernel_of_either_kind_is_refused(client: TestClient, raw: Driver) -> None:
    a = _new_scope(client)
    for label in ("AgentKernel", "WorldKernel"):
        _refused(raw, f"CREATE (:Artifact:{label} {{id: $id, scope_id: $sid}})", KERNEL_CONSTRAINT,
                 id=unique("k"), sid=a["id"])
    m = _memory(raw, a["id"])
    _refused(raw, "MATCH (x {id: $m}) SET x:AgentKernel", KERNEL_CONSTRAINT, m=m)
    assert raw.execute_query("MATCH (k:AgentKernel {scope_id: $sid}) RETURN count(k)", sid=a["id"]
                             ).records[0][0] == 1


def test_kernel_cannot_be_deleted_or_unlabelled_while_its_scope_exists(client: TestClient, raw: Driver) -> None:
    a = _new_scope(client)
    _refused(raw, "MATCH (k {id: $k}) DETACH DELETE k", "kernel_cardinality", k=a["world_kernel_id"])
    _refused(raw, "MATCH (k {id: $k}) REMOVE k:AgentKernel", "kernel_cardinality", k=a["agent_kernel_id"])


def test_scope_without_kernels_and_orphan_artifacts_are_refused(raw: Driver) -> None:
    _refused(raw, "CREATE (:Scope {id: $id, namespace: 'n', cognitive_owner: 'o', name: $id})",
             "kernel_cardinality", id=unique("s"))
    _refused(raw, "CREATE (:Artifact:Memory {id: $id, scope_id: 'no-such-scope'})", "artifact_without_scope",
             id=unique("m"))
    _refused(raw, "CREATE (:Artifact:Memory {id: $id})", "artifact_without_scope", id=unique("m"))


def test_scope_node_cannot_be_deleted_while_it_owns_artifacts(client: TestClient, raw: Driver) -> None:
    a = _new_scope(client)
    _refused(raw, "MATCH (s:Scope {id: $id}) DETACH DELETE s", "scope_not_empty", id=a["id"])
    assert client.get(f"/v1/scopes/{a['id']}").status_code == 200


def test_uniqueness_of_ids(client: TestClient, raw: Driver) -> None:
    a = _new_scope(client)
    m = _memory(raw, a["id"])
    with pytest.raises(ClientError) as info:
        raw.execute_query("CREATE (:Artifact:Memory {id: $id, scope_id: $sid})", id=m, sid=a["id"])
    assert "already exists" in str(info.value)
    with pytest.raises(ClientError):
        raw.execute_query("CREATE (:Scope {id: $id})", id=a["id"])
