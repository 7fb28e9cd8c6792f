"""Memory operations against the real Neo4j: save, load, list, search, update, delete, history, views."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver
from pydantic import ValidationError

from tests.conftest import unique


def base(scope: dict[str, Any]) -> str:
    return f"/v1/scopes/{scope['id']}"


def save(client: TestClient, scope: dict[str, Any], content: str = "a fact", **extra: Any) -> dict[str, Any]:
    body = {"kind": "semantic", "tier": "agent", "content": content, **extra}
    r = client.post(f"{base(scope)}/memories", json=body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def test_save_returns_record_with_derived_metadata_and_etag(client: TestClient, scope: dict[str, Any]) -> None:
    r = client.post(f"{base(scope)}/memories",
                    json={"kind": "preference", "tier": "role", "content": "likes green tea", "tags": ["tea"]})
    assert r.status_code == 201
    m = r.json()
    assert m["status"] == "active" and m["revision"] == 1 and m["recall_count"] == 0
    assert m["stale"] is False and m["conflicted"] is False
    assert m["accessed_at"] == m["created_at"]  # the accessed_at floor: never epoch
    assert m["kind"] == "preference" and m["tier"] == "role" and m["tags"] == ["tea"]
    assert r.headers["ETag"] == '"1"'


def test_any_unicode_code_and_json_round_trip(client: TestClient, scope: dict[str, Any]) -> None:
    texts = ["def f(x):\n    return {'a': [1, 2]}\n", '{"k": [1, 2, {"z": null}], "s": "中文"}',
             "用户的生日是五月三日。", "Emoji 👩🏽‍💻 and 🇨🇳 flags", "```sql\nSELECT 1;\n```"]
    for t in texts:
        m = save(client, scope, t)
        assert client.get(f"{base(scope)}/memories/{m['id']}").json()["content"] == t


def test_unknown_enum_and_missing_fields_are_named_422s(client: TestClient, scope: dict[str, Any]) -> None:
    r = client.post(f"{base(scope)}/memories", json={"kind": "dream", "tier": "agent", "content": "x"})
    assert r.status_code == 422 and r.json()["field"] == "kind"
    r = client.post(f"{base(scope)}/memories", json={"kind": "fact", "tier": "forever", "content": "x"})
    assert r.status_code == 422 and r.json()["field"] == "tier"
    r = client.post(f"{base(scope)}/memories", json={"kind": "fact", "tier": "agent"})
    assert r.status_code == 422 and r.json()["field"] == "content"
    r = client.post(f"{base(scope)}/memories", json={"kind": "fact", "tier": "agent", "content": "x", "bogus": 1})
    assert r.status_code == 422 and r.json()["field"] == "bogus"


def test_service_owned_fields_are_refused_by_name(client: TestClient, scope: dict[str, Any], raw: Driver) -> None:
    owned = {"recall_count": 5, "accessed_at": "2020-01-01T00:00:00Z", "status": "active", "stale": True,
             "conflicted": False, "revision": 9, "support": [], "lineage": {}, "invalidation": {}, "cleanup": {}}
    m = save(client, scope)
    for field, value in owned.items():
        body = {"kind": "fact", "tier": "agent", "content": "x", field: value}
        r = client.post(f"{base(scope)}/memories", json=body)
        assert r.status_code == 422, field
        assert r.json()["code"] == "service_owned_field" and r.json()["field"] == field
        r = client.patch(f"{base(scope)}/memories/{m['id']}", json={field: value}, headers={"If-Match": '"1"'})
        assert r.status_code == 422 and r.json()["field"] == field
    n = raw.execute_query("MATCH (a:Memory {scope_id: $s}) RETURN count(a)", s=scope["id"]).records[0][0]
    assert n == 1


def test_load_counts_a_recall_without_changing_revision_or_etag(client: TestClient, scope: dict[str, Any]) -> None:
    m = save(client, scope)
    first = client.get(f"{base(scope)}/memories/{m['id']}")
    second = client.get(f"{base(scope)}/memories/{m['id']}")
    assert first.json()["recall_count"] == 1 and second.json()["recall_count"] == 2
    assert second.json()["accessed_at"] >= first.json()["accessed_at"] > m["created_at"]
    assert first.headers["ETag"] == second.headers["ETag"] == '"1"'
    assert second.json()["revision"] == 1


def test_list_filters_paginate_in_stable_order_and_do_not_recall(client: TestClient, scope: dict[str, Any]) -> None:
    made = [save(client, scope, f"m{i}", kind="fact" if i % 2 else "episodic", tags=["even"] if i % 2 == 0 else [])
            for i in range(7)]
    seen: list[str] = []
    cursor = None
    while True:
        q = {"limit": 3} | ({"cursor": cursor} if cursor else {})
        page = client.get(f"{base(scope)}/memories", params=q).json()
        seen += [x["id"] for x in page["items"]]
        cursor = page["next_cursor"]
        if not cursor:
            break
    assert seen == [m["id"] for m in made]
    facts = client.get(f"{base(scope)}/memories", params={"kind": "fact"}).json()["items"]
    assert [x["id"] for x in facts] == [m["id"] for m in made[1::2]]
    tagged = client.get(f"{base(scope)}/memories", params={"tag": "even"}).json()["items"]
    assert len(tagged) == 4
    assert client.get(f"{base(scope)}/memories", params={"tier": "session"}).json()["items"] == []
    after = client.get(f"{base(scope)}/memories", params={"created_after": made[5]["created_at"]}).json()["items"]
    assert [x["id"] for x in after] == [made[5]["id"], made[6]["id"]]
    assert all(x["recall_count"] == 0 for x in client.get(f"{base(scope)}/memories").json()["items"])
    r = client.get(f"{base(scope)}/memories", params={"cursor": "garbage!"})
    assert r.status_code == 422 and r.json()["code"] == "invalid_cursor"


def test_search_finds_chinese_and_english_and_counts_recalls(client: TestClient, scope: dict[str, Any]) -> None:
    zh = save(client, scope, "用户的生日是五月三日，喜欢吃火锅。")
    en = save(client, scope, "The deployment pipeline runs on Fridays.")
    save(client, scope, "unrelated note about gardening")
    hits = client.post(f"{base(scope)}/memories/search", json={"query": "生日"}).json()["items"]
    assert [h["id"] for h in hits] == [zh["id"]] and hits[0]["score"] > 0 and hits[0]["recall_count"] == 1
    hits = client.post(f"{base(scope)}/memories/search", json={"query": "deployment Fridays"}).json()["items"]
    assert hits[0]["id"] == en["id"]
    # Lucene syntax in the query is text, not operators.
    r = client.post(f"{base(scope)}/memories/search", json={"query": 'pipeline AND (x OR "y" -z:* ~'})
    assert r.status_code == 200


def test_search_is_confined_to_its_scope(client: TestClient, scope: dict[str, Any]) -> None:
    other = client.post("/v1/scopes", json={"namespace": unique("ns"), "cognitive_owner": "o", "name": "x"}).json()
    secret = save(client, other, "the launch code is zebra-quokka")
    assert client.post(f"{base(scope)}/memories/search", json={"query": "zebra quokka"}).json()["items"] == []
    hits = client.post(f"{base(other)}/memories/search", json={"query": "zebra quokka"}).json()["items"]
    assert [h["id"] for h in hits] == [secret["id"]]


def test_search_flags_stale_and_conflicted_and_hides_archived_unless_asked(
        client: TestClient, scope: dict[str, Any], raw: Driver) -> None:
    stale = save(client, scope, "quasar note one")
    conflicted = save(client, scope, "quasar note two")
    archived = save(client, scope, "quasar note three")
    raw.execute_query("MATCH (a {id: $a}) SET a.stale = true", a=stale["id"])
    raw.execute_query("MATCH (a {id: $a}) SET a.conflicted = true", a=conflicted["id"])
    raw.execute_query("MATCH (a {id: $a}) SET a.status = 'archived'", a=archived["id"])
    ws = client.post(f"{base(scope)}/working-state", json={"content": "quasar scratch"})
    assert ws.status_code == 201
    hits = {h["id"]: h for h in client.post(f"{base(scope)}/memories/search", json={"query": "quasar"}).json()["items"]}
    assert set(hits) == {stale["id"], conflicted["id"]}
    assert hits[stale["id"]]["stale"] is True and hits[conflicted["id"]]["conflicted"] is True
    hits2 = client.post(f"{base(scope)}/memories/search", json={"query": "quasar", "include_archived": True}).json()
    assert {h["id"] for h in hits2["items"]} == {stale["id"], conflicted["id"], archived["id"]}


def test_update_is_a_new_revision_with_optimistic_concurrency(client: TestClient, scope: dict[str, Any]) -> None:
    m = save(client, scope, "v1")
    url = f"{base(scope)}/memories/{m['id']}"
    assert client.patch(url, json={"content": "v2"}).status_code == 428
    r = client.patch(url, json={"content": "v2", "tags": ["t"]}, headers={"If-Match": '"1"'})
    assert r.status_code == 200 and r.json()["revision"] == 2 and r.headers["ETag"] == '"2"'
    assert r.json()["content"] == "v2" and r.json()["tags"] == ["t"]
    r = client.patch(url, json={"content": "v3"}, headers={"If-Match": '"1"'})
    assert r.status_code == 412 and r.json()["code"] == "revision_mismatch"
    assert client.get(url).json()["content"] == "v2"


def test_concurrent_updates_with_the_same_if_match_exactly_one_wins(client: TestClient,
                                                                   scope: dict[str, Any]) -> None:
    m = save(client, scope, "v1")
    url = f"{base(scope)}/memories/{m['id']}"
    statuses: list[int] = []
    lock = threading.Lock()
    barrier = threading.Barrier(8)

    def attempt(i: int) -> None:
        barrier.wait()
        r = client.patch(url, json={"content": f"writer {i}"}, headers={"If-Match": '"1"'})
        with lock:
            statuses.append(r.status_code)

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [200] + [412] * 7
    final = client.get(url).json()
    assert final["revision"] == 2
    history = client.get(f"{url}/history").json()["items"]
    assert [h["revision"] for h in history if h["type"] == "revision"] == [1, 2]


def test_ids_from_another_scope_are_404_everywhere(client: TestClient, scope: dict[str, Any]) -> None:
    other = client.post("/v1/scopes", json={"namespace": unique("ns"), "cognitive_owner": "o", "name": "x"}).json()
    theirs = save(client, other, "not yours")
    url = f"{base(scope)}/memories/{theirs['id']}"
    assert client.get(url).status_code == 404
    assert client.patch(url, json={"content": "mine now"}, headers={"If-Match": '"1"'}).status_code == 404
    assert client.delete(url).status_code == 404
    assert client.get(f"{url}/history").status_code == 404
    for v in ("support", "lineage", "invalidation", "cleanup"):
        assert client.get(f"{url}/views/{v}").status_code == 404
    after = client.get(f"{base(other)}/memories/{theirs['id']}").json()
    assert after["content"] == "not yours" and after["status"] == "active"


def test_delete_checks_dependents_then_leaves_a_tombstone(client: TestClient, scope: dict[str, Any],
                                                         raw: Driver) -> None:
    target = save(client, scope, "base fact")
    dep = save(client, scope, "depends on base")
    derived = save(client, scope, "derived from base")
    for t, f in (("DEPENDS_ON", dep), ("DERIVED_FROM", derived)):
        assert client.post(f"{base(scope)}/edges", json={"type": t, "from_id": f["id"], "to_id": target["id"]}
                           ).status_code == 201
    url = f"{base(scope)}/memories/{target['id']}"
    r = client.delete(url)
    assert r.status_code == 409 and r.json()["code"] == "has_dependents"
    assert sorted(r.json()["dependents"]) == sorted([dep["id"], derived["id"]])
    assert client.get(url).status_code == 200
    r = client.delete(url, params={"detach": "true", "reason": "user asked"})
    assert r.status_code == 200 and sorted(r.json()["detached"]) == sorted([dep["id"], derived["id"]])
    assert client.get(url).json()["code"] == "artifact_removed"
    tomb = raw.execute_query("MATCH (t:Tombstone {id: $id}) RETURN t", id=target["id"]).records[0]["t"]
    actor = client.get("/v1/whoami").json()["key_id"]  # the audit trail names the key
    assert tomb["removed_by"] == actor and tomb["reason"] == "user asked" and "content" not in tomb
    assert raw.execute_query("MATCH ({id: $d})-[:DEPENDS_ON]->(t:Tombstone {id: $id}) RETURN count(*)",
                             d=dep["id"], id=target["id"]).records[0][0] == 1
    assert raw.execute_query("MATCH (r:Revision {artifact_id: $id}) RETURN count(r)", id=target["id"]
                             ).records[0][0] == 0
    inv = client.get(f"{base(scope)}/memories/{dep['id']}/views/invalidation").json()
    assert inv["broken_references"] == [{"path": [dep["id"], target["id"]], "broken_id": target["id"],
                                         "reason": "tombstone"}]
    events = [h for h in client.get(f"{url}/history").json()["items"] if h["type"] == "event"]
    assert [e["op"] for e in events] == ["save", "delete"] and events[1]["reason"] == "user asked"


def test_kernels_are_not_deletable_and_are_revisioned(client: TestClient, scope: dict[str, Any]) -> None:
    r = client.delete(f"{base(scope)}/kernels/agent")
    assert r.status_code == 409 and r.json()["code"] == "kernel_not_deletable"
    r = client.delete(f"{base(scope)}/memories/{scope['world_kernel_id']}")
    assert r.status_code == 409 and r.json()["code"] == "kernel_not_deletable"
    k = client.get(f"{base(scope)}/kernels/world")
    assert k.status_code == 200 and k.json()["family"] == "world_kernel"
    r = client.put(f"{base(scope)}/kernels/world", json={"content": "the world is a graph"},
                   headers={"If-Match": k.headers["ETag"]})
    assert r.status_code == 200 and r.json()["revision"] == 2
    hist = client.get(f"{base(scope)}/kernels/world/history").json()["items"]
    assert [h["content"] for h in hist if h["type"] == "revision"] == ["", "the world is a graph"]


def test_history_is_oldest_first(client: TestClient, scope: dict[str, Any]) -> None:
    m = save(client, scope, "one")
    url = f"{base(scope)}/memories/{m['id']}"
    client.patch(url, json={"content": "two"}, headers={"If-Match": '"1"'})
    client.patch(url, json={"content": "three"}, headers={"If-Match": '"2"'})
    items = client.get(f"{url}/history").json()["items"]
    revs = [h for h in items if h["type"] == "revision"]
    assert [(h["revision"], h["content"]) for h in revs] == [(1, "one"), (2, "two"), (3, "three")]
    ats = [h["at"] for h in items]
    assert ats == sorted(ats)
    assert [h["op"] for h in items if h["type"] == "event"] == ["save", "update", "update"]


def test_views_are_computed_by_the_service(client: TestClient, scope: dict[str, Any]) -> None:
    a, b, c = save(client, scope, "a"), save(client, scope, "b"), save(client, scope, "c")
    client.post(f"{base(scope)}/edges", json={"type": "SUPPORTS", "from_id": b["id"], "to_id": a["id"]})
    client.post(f"{base(scope)}/edges", json={"type": "DERIVED_FROM", "from_id": a["id"], "to_id": c["id"]})
    sup = client.get(f"{base(scope)}/memories/{a['id']}/views/support").json()
    assert sup["healthy_inbound"] == 1 and sup["inbound"][0]["id"] == b["id"]
    lin = client.get(f"{base(scope)}/memories/{a['id']}/views/lineage").json()
    assert [x["id"] for x in lin["derived_from"]] == [c["id"]] and lin["revisions"] == 1
    cl = client.get(f"{base(scope)}/memories/{a['id']}/views/cleanup").json()
    assert cl["status"] == "active" and cl["decisions"] == []
    assert client.get(f"{base(scope)}/memories/{a['id']}/views/bogus").status_code == 422


def test_edges_within_one_scope_only(client: TestClient, scope: dict[str, Any], raw: Driver) -> None:
    a, b = save(client, scope, "a"), save(client, scope, "b")
    other = client.post("/v1/scopes", json={"namespace": unique("ns"), "cognitive_owner": "o", "name": "x"}).json()
    x = save(client, other, "x")
    r = client.post(f"{base(scope)}/edges", json={"type": "DEPENDS_ON", "from_id": a["id"], "to_id": x["id"]})
    assert r.status_code == 404
    assert raw.execute_query("MATCH ({id: $a})-[r]-() WHERE type(r) <> 'HAS_REVISION' RETURN count(r)",
                             a=a["id"]).records[0][0] == 0
    r = client.post(f"{base(scope)}/edges", json={"type": "RELATES_TO", "from_id": a["id"], "to_id": b["id"]})
    assert r.status_code == 422 and r.json()["code"] == "invalid_relation"
    r = client.post(f"{base(scope)}/edges", json={"type": "SUPERSEDES", "from_id": a["id"], "to_id": b["id"]})
    assert r.status_code == 422 and r.json()["field"] == "type"
    r = client.post(f"{base(scope)}/edges",
                    json={"type": "RELATES_TO", "relation": "explains", "from_id": a["id"], "to_id": b["id"]})
    assert r.status_code == 201 and r.json()["relation"] == "explains"
    q = {"type": "RELATES_TO", "from_id": a["id"], "to_id": b["id"], "relation": "explains"}
    assert client.delete(f"{base(scope)}/edges", params=q).status_code == 204
    assert client.delete(f"{base(scope)}/edges", params=q).status_code == 404


@pytest.mark.parametrize("edge", [{"type": "DEPENDS_ON"}, {"type": "RELATES_TO", "relation": "explains"}])
def test_an_edge_to_a_row_deleted_while_it_waits_for_the_lock_leaves_no_marker(
        client: TestClient, scope: dict[str, Any], raw: Driver, edge: dict[str, str]) -> None:
    """Edge creation locks both ends by writing a `_lock` marker, then re-checks that both are still artifacts. The
    marker used to leave after the re-check, so when a delete committed while the edge waited for the lock, the
    re-check dropped the row and the marker stayed, committed, on the live end: every later read of that record
    (load, search, context) answered 500 (the soak test caught a context call). A raw transaction holds the target's
    lock and turns it into a tombstone, as a delete does; it commits while the edge waits."""
    dependant, target = save(client, scope, "the dependant"), save(client, scope, "the target")
    answer: dict[str, Any] = {}
    with raw.session() as session:
        tx = session.begin_transaction()
        tx.run("MATCH (a:Artifact {id: $id}) REMOVE a:Artifact:Memory SET a:Tombstone, a.status = 'removed'",
               id=target["id"]).consume()
        waiting = threading.Thread(target=lambda: answer.update(r=client.post(
            f"{base(scope)}/edges", json={**edge, "from_id": dependant["id"], "to_id": target["id"]})))
        waiting.start()
        waiting.join(timeout=1.5)
        assert waiting.is_alive()  # it waits for the target's lock
        tx.commit()
        waiting.join()
    assert answer["r"].status_code == 404, answer["r"].text
    assert raw.execute_query("MATCH (n) WHERE n._lock IS NOT NULL RETURN count(n)").records[0][0] == 0
    assert client.get(f"{base(scope)}/memories/{dependant['id']}").status_code == 200


def test_the_stray_lock_marker_migration_repairs_records_idempotently(client: TestClient, scope: dict[str, Any],
                                                                     raw: Driver, on_graph: Any) -> None:
    """Migration 0016 removes the markers the old edge creation could leave committed: the record reads again."""
    from graph.schema import apply_schema

    live, gone = save(client, scope, "marked"), save(client, scope, "marked, then deleted")
    assert client.delete(f"{base(scope)}/memories/{gone['id']}").status_code == 200
    raw.execute_query("MATCH (n) WHERE n.id IN $ids SET n._lock = true", ids=[live["id"], gone["id"]])
    listed = f"{base(scope)}/memories"
    with pytest.raises(ValidationError, match="_lock"):  # what the marker did to a read that does not write: a 500
        client.get(listed)
    for _ in range(2):
        on_graph(lambda g: apply_schema(g, rerun=True))
        assert raw.execute_query("MATCH (n) WHERE n._lock IS NOT NULL RETURN count(n)").records[0][0] == 0
        assert [m["id"] for m in client.get(listed).json()["items"]] == [live["id"]]


def test_batch_save_writes_all_in_one_transaction(client: TestClient, scope: dict[str, Any], raw: Driver) -> None:
    items = [{"kind": "fact", "tier": "agent", "content": f"fact number {i}"} for i in range(1000)]
    r = client.post(f"{base(scope)}/memories/batch", json={"items": items})
    assert r.status_code == 201 and len(r.json()["items"]) == 1000
    assert raw.execute_query("MATCH (a:Memory {scope_id: $s}) RETURN count(a)", s=scope["id"]).records[0][0] == 1000
    r = client.post(f"{base(scope)}/memories/batch", json={"items": items + items[:1]})
    assert r.status_code == 422 and r.json()["field"] == "items"


def test_idempotency_key_writes_once(client: TestClient, scope: dict[str, Any], raw: Driver) -> None:
    body = {"kind": "fact", "tier": "agent", "content": "exactly once"}
    h = {"Idempotency-Key": unique("k")}
    r1 = client.post(f"{base(scope)}/memories", json=body, headers=h)
    r2 = client.post(f"{base(scope)}/memories", json=body, headers=h)
    assert r1.status_code == r2.status_code == 201 and r1.json()["id"] == r2.json()["id"]
    assert raw.execute_query("MATCH (a:Memory {scope_id: $s}) RETURN count(a)", s=scope["id"]).records[0][0] == 1
    r3 = client.post(f"{base(scope)}/memories", json=body | {"content": "different"}, headers=h)
    assert r3.status_code == 422 and r3.json()["code"] == "idempotency_key_reused"


def test_knowledge_skills_and_working_state(client: TestClient, scope: dict[str, Any]) -> None:
    k1 = client.post(f"{base(scope)}/knowledge", json={"title": "Neo4j", "body": "图数据库，属性图模型"}).json()
    r = client.post(f"{base(scope)}/knowledge",
                    json={"title": "Cypher", "body": "Neo4j 的查询语言", "relations": [{"type": "part_of",
                                                                                  "to_id": k1["id"]}]})
    assert r.status_code == 201 and r.json()["relations"] == [{"type": "part_of", "to_id": k1["id"]}]
    r = client.post(f"{base(scope)}/knowledge",
                    json={"title": "x", "body": "y", "relations": [{"type": "t", "to_id": "nope"}]})
    assert r.status_code == 404 and r.json()["code"] == "relation_target_not_found"
    assert len(client.get(f"{base(scope)}/knowledge").json()["items"]) == 2
    hits = client.post(f"{base(scope)}/knowledge/search", json={"query": "查询语言"}).json()["items"]
    assert hits and hits[0]["title"] == "Cypher"
    s = client.post(f"{base(scope)}/skills",
                    json={"name": "release", "when_to_use": "shipping a version", "steps": ["tag", "build", "push"]})
    assert s.status_code == 201 and s.json()["steps"] == ["tag", "build", "push"]
    r = client.patch(f"{base(scope)}/skills/{s.json()['id']}", json={"steps": ["tag", "push"]},
                     headers={"If-Match": '"1"'})
    assert r.status_code == 200 and r.json()["steps"] == ["tag", "push"] and r.json()["name"] == "release"
    found = client.post(f"{base(scope)}/skills/search", json={"query": "shipping"}).json()["items"]
    assert found[0]["name"] == "release"
    w = client.post(f"{base(scope)}/working-state", json={"content": "TASK_STATE: step 2 of 5"})
    assert w.status_code == 201
    assert client.post(f"{base(scope)}/memories/search", json={"query": "step"}).json()["items"] == []
    assert client.delete(f"{base(scope)}/working-state").json() == {"cleared": 1}
    assert client.get(f"{base(scope)}/working-state/{w.json()['id']}").status_code == 404


def test_accessed_at_floor_migration_repairs_rows_idempotently(client: TestClient, scope: dict[str, Any],
                                                               raw: Driver, on_graph: Any) -> None:
    from graph.schema import apply_schema

    ids = [unique("bad") for _ in range(3)]
    raw.execute_query(
        "UNWIND range(0, 2) AS i CREATE (a:Artifact:Memory {id: $ids[i], scope_id: $s, family: 'memory', "
        "status: 'active', created_at: datetime('2025-01-0' + (i + 1) + 'T00:00:00Z')}) "
        "SET a.accessed_at = CASE i WHEN 0 THEN datetime('1970-01-01T00:00:00Z') WHEN 1 THEN 0 ELSE null END",
        ids=ids, s=scope["id"])
    for _ in range(2):
        on_graph(lambda g: apply_schema(g, rerun=True))
        rows = raw.execute_query("MATCH (a:Memory) WHERE a.id IN $ids RETURN a.id AS id, a.accessed_at = a.created_at "
                                 "AS ok ORDER BY id", ids=ids).records
        assert all(r["ok"] for r in rows) and len(rows) == 3
