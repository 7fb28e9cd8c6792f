"""GC against the real Neo4j: capacity eviction by lowest RetentionScore never touches exempt kinds, a TTL run
reclaims at most its batch, and both go through the audited archive → remove lifecycle."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from neo4j import Driver

from digest.gc import GCConfig, run_gc
from tests.conftest import OnGraph


def base(scope: dict[str, Any]) -> str:
    return f"/v1/scopes/{scope['id']}"


def mem(client: TestClient, scope: dict[str, Any], content: str, kind: str = "fact", tier: str = "agent") -> str:
    r = client.post(f"{base(scope)}/memories", json={"kind": kind, "tier": tier, "content": content})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def gc(client: TestClient, scope: dict[str, Any], **extra: Any) -> dict[str, Any]:
    r = client.post("/v1/gc/runs", json={"namespace": scope["namespace"],
                                         "cognitive_owner": scope["cognitive_owner"], **extra})
    assert r.status_code in (200, 201), r.text
    out: dict[str, Any] = r.json()
    return out


def test_capacity_eviction_takes_lowest_retention_and_never_exempt_kinds(client: TestClient, scope: dict[str, Any],
                                                                          raw: Driver) -> None:
    exempt = [mem(client, scope, f"rule {k}", kind=k, tier="role")
              for k in ("constraint", "instruction", "environment")]
    weak = [mem(client, scope, f"weak {i}") for i in range(3)]
    strong = [mem(client, scope, f"strong {i}") for i in range(3)]
    # exempt rows hold the lowest scores of all: never recalled, untrusted, untouched for a year
    raw.execute_query("MATCH (a) WHERE a.id IN $ids SET a.trust = 0.0, a.recall_count = 0, "
                      "a.created_at = datetime() - duration('P365D'), a.accessed_at = datetime() - duration('P365D')",
                      ids=exempt)
    raw.execute_query("MATCH (a) WHERE a.id IN $ids SET a.trust = 0.1, a.accessed_at = datetime() - duration('P20D'), "
                      "a.created_at = datetime() - duration('P20D')", ids=weak)
    raw.execute_query("MATCH (a) WHERE a.id IN $ids SET a.trust = 0.9, a.recall_count = 12", ids=strong)
    out = gc(client, scope, max_entries=6)
    assert out["pass"]["kind"] == "gc" and out["pass"]["state"] == "finished"
    evicted = {d["artifact_id"] for d in out["decisions"]}
    assert evicted == set(weak) and {d["rule"] for d in out["decisions"]} == {"capacity_eviction"}
    left = {x["id"] for x in client.get(f"{base(scope)}/memories").json()["items"]}
    assert set(exempt) <= left and set(strong) <= left
    # below the cap: exempt rows are still never chosen, even with max_entries 0
    out = gc(client, scope, max_entries=0)
    assert {d["artifact_id"] for d in out["decisions"]} == set(strong)
    why = client.get(f"{base(scope)}/memories/{weak[0]}/views/cleanup").json()
    assert why["status"] == "archived" and why["decisions"][0]["rule"] == "capacity_eviction"
    assert why["decisions"][0]["pass_kind"] == "gc"


def test_ttl_run_reclaims_no_more_than_its_batch_oldest_first(client: TestClient, scope: dict[str, Any], raw: Driver,
                                                               on_graph: OnGraph) -> None:
    ids = [mem(client, scope, f"session note {i}", tier="session") for i in range(7)]
    role = mem(client, scope, "role memory", tier="role")
    fresh = mem(client, scope, "fresh session note", tier="session")
    exempt = mem(client, scope, "env", kind="environment", tier="session")
    for i, mid in enumerate(ids):
        raw.execute_query("MATCH (a {id: $id}) SET a.accessed_at = datetime() - duration({hours: 48 + $i}), "
                          "a.created_at = datetime() - duration({hours: 100})", id=mid, i=i)
    raw.execute_query("MATCH (a) WHERE a.id IN $ids SET a.accessed_at = datetime() - duration('P400D')",
                      ids=[role, exempt])
    cfg = GCConfig(max_entries=None, ttl_batch=3)
    out = on_graph(lambda g: run_gc(g, namespace=scope["namespace"], cognitive_owner=scope["cognitive_owner"],
                                    actor="test", config=cfg))
    got = [d["artifact_id"] for d in out["decisions"]]
    assert len(got) == 3 and set(got) == set(ids[4:]) and {d["rule"] for d in out["decisions"]} == {"ttl_expired"}
    out = on_graph(lambda g: run_gc(g, namespace=scope["namespace"], cognitive_owner=scope["cognitive_owner"],
                                    actor="test", config=cfg))
    assert {d["artifact_id"] for d in out["decisions"]} == set(ids[1:4])
    active = {x["id"] for x in client.get(f"{base(scope)}/memories").json()["items"]}
    assert {role, fresh, exempt, ids[0]} <= active


def test_gc_removes_only_what_an_earlier_finished_gc_pass_archived(client: TestClient, scope: dict[str, Any],
                                                                    raw: Driver) -> None:
    a, b = mem(client, scope, "a", tier="session"), mem(client, scope, "b", tier="session")
    raw.execute_query("MATCH (x) WHERE x.id IN $ids SET x.accessed_at = datetime() - duration('P3D')", ids=[a, b])
    gc(client, scope, max_entries=100)
    assert client.post(f"{base(scope)}/memories/{b}/restore").status_code == 200
    r = client.post("/v1/gc/runs", json={"namespace": scope["namespace"], "cognitive_owner": scope["cognitive_owner"],
                                         "phases": ["archive", "remove"]})
    assert r.status_code == 422 and r.json()["code"] == "archive_and_remove_in_one_pass"
    out = gc(client, scope, phases=["remove"])
    assert [(d["artifact_id"], d["action"], d["rule"]) for d in out["decisions"]] == [(a, "remove", "ttl_expired")]
    assert client.get(f"{base(scope)}/memories/{a}").json()["code"] == "artifact_removed"
    assert client.get(f"{base(scope)}/memories/{b}").json()["status"] == "active"


def test_gc_dry_run_changes_nothing(client: TestClient, scope: dict[str, Any]) -> None:
    ids = [mem(client, scope, f"m{i}") for i in range(4)]
    out = gc(client, scope, max_entries=1, dry_run=True)
    assert len(out["decisions"]) == 3 and out["pass"]["dry_run"] is True
    assert {x["id"] for x in client.get(f"{base(scope)}/memories").json()["items"]} == set(ids)
