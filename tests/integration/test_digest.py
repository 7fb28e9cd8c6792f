"""Refgraph reasoning and the digest against the real Neo4j: each rule fires, each keep-reason holds, archive and
remove never happen in one pass, every decision is a graph fact an auditor can follow."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver
from neo4j.exceptions import Neo4jError

from digest import passes
from graph import passes as repo
from graph.errors import CognitionError, Invalid, Unavailable
from tests.conftest import OnGraph, unique


def base(scope: dict[str, Any]) -> str:
    return f"/v1/scopes/{scope['id']}"


def mem(client: TestClient, scope: dict[str, Any], content: str, **extra: Any) -> str:
    body = {"kind": "semantic", "tier": "agent", "content": content, **extra}
    r = client.post(f"{base(scope)}/memories", json=body)
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def edge(client: TestClient, scope: dict[str, Any], type_: str, a: str, b: str) -> None:
    assert client.post(f"{base(scope)}/edges", json={"type": type_, "from_id": a, "to_id": b}).status_code == 201


def run(client: TestClient, scope: dict[str, Any], phase: str = "archive", **extra: Any) -> dict[str, Any]:
    body = {"namespace": scope["namespace"], "cognitive_owner": scope["cognitive_owner"], "phases": [phase], **extra}
    r = client.post("/v1/digest/passes", json=body)
    assert r.status_code in (200, 201), r.text
    out: dict[str, Any] = r.json()
    return out


def status(client: TestClient, scope: dict[str, Any], mid: str) -> str:
    r = client.get(f"{base(scope)}/memories", params={"status": "archived"}).json()["items"]
    if mid in {x["id"] for x in r}:
        return "archived"
    r2 = client.get(f"{base(scope)}/memories").json()["items"]
    return "active" if mid in {x["id"] for x in r2} else "gone"


def by_artifact(out: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {d["artifact_id"]: d for d in out["decisions"]}


def test_broken_reference_archives_with_the_path_as_evidence(client: TestClient, scope: dict[str, Any],
                                                           raw: Driver) -> None:
    a, b, c = mem(client, scope, "a"), mem(client, scope, "b"), mem(client, scope, "c")
    healthy = mem(client, scope, "healthy")
    edge(client, scope, "DEPENDS_ON", a, b)
    edge(client, scope, "DEPENDS_ON", b, c)
    assert client.delete(f"{base(scope)}/memories/{c}", params={"detach": "true"}).status_code == 200
    out = run(client, scope)
    d = by_artifact(out)
    assert d[b]["rule"] == "broken_reference" and d[b]["path"] == [b, c] and d[b]["cites"] == [c]
    assert d[a]["rule"] == "broken_reference" and d[a]["path"] == [a, b, c]
    assert healthy not in d and out["pass"]["state"] == "finished"
    assert status(client, scope, a) == "archived" and status(client, scope, healthy) == "active"
    # the decision is a graph fact, visible to Neo4j Browser
    rec = raw.execute_query(
        "MATCH (p:DigestPass {id: $p})-[:DECIDED]->(d:Decision {action: 'archive'})-[:ABOUT]->(a {id: $a}) "
        "MATCH (d)-[:CITES]->(t:Tombstone) RETURN d.rule AS rule, t.id AS t", p=out["pass"]["id"], a=b).records
    assert rec[0]["rule"] == "broken_reference" and rec[0]["t"] == c
    why = client.get(f"{base(scope)}/memories/{a}/views/cleanup").json()
    assert why["status"] == "archived"
    dec = why["decisions"][0]
    assert dec["pass_id"] == out["pass"]["id"] and dec["rule"] == "broken_reference"
    assert dec["broken_reference"] == {"path": [a, b, c], "broken_id": c}


def test_healthy_inbound_support_keeps_and_stale_support_does_not(client: TestClient, scope: dict[str, Any],
                                                                  raw: Driver) -> None:
    gone = mem(client, scope, "gone")
    kept, lost = mem(client, scope, "kept"), mem(client, scope, "lost")
    good, tired = mem(client, scope, "supporter"), mem(client, scope, "stale supporter", tier="role")
    for x in (kept, lost):
        edge(client, scope, "DEPENDS_ON", x, gone)
    edge(client, scope, "SUPPORTS", good, kept)
    edge(client, scope, "SUPPORTS", tired, lost)
    raw.execute_query("MATCH (a {id: $id}) SET a.accessed_at = datetime() - duration('P40D')", id=tired)
    client.delete(f"{base(scope)}/memories/{gone}", params={"detach": "true"})
    d = by_artifact(run(client, scope))
    assert d[kept]["action"] == "keep" and d[kept]["rule"] == "healthy_inbound_support"
    assert d[kept]["cites"] == [good] and "broken_reference" in d[kept]["rules"]
    assert d[lost]["action"] == "archive"
    assert status(client, scope, kept) == "active" and status(client, scope, lost) == "archived"


def test_stale_role_memories_are_flagged_searchable_and_archived(client: TestClient, scope: dict[str, Any],
                                                                 raw: Driver) -> None:
    old = mem(client, scope, "nebula preference", tier="role")
    supported = mem(client, scope, "nebula constraint", tier="role")
    recalled = mem(client, scope, "nebula recalled", tier="role")
    agent_tier = mem(client, scope, "nebula agent tier")
    helper = mem(client, scope, "helper")
    edge(client, scope, "SUPPORTS", helper, supported)
    raw.execute_query("MATCH (a) WHERE a.id IN $ids SET a.accessed_at = datetime() - duration('P31D')",
                      ids=[old, supported, recalled, agent_tier])
    raw.execute_query("MATCH (a {id: $id}) SET a.recall_count = 3", id=recalled)
    # dry run: decisions, nothing applied
    dry = run(client, scope, dry_run=True)
    assert dry["pass"]["dry_run"] is True and set(by_artifact(dry)) == {old, supported}
    assert status(client, scope, old) == "active"
    d = by_artifact(run(client, scope))
    assert d[old]["rule"] == "stale" and d[old]["action"] == "archive"
    assert d[supported]["action"] == "keep" and recalled not in d and agent_tier not in d
    hits = {h["id"]: h for h in client.post(f"{base(scope)}/memories/search", json={"query": "nebula"}).json()["items"]}
    assert hits[supported]["stale"] is True  # flagged, still found by explicit search
    assert old not in hits  # archived
    hits = client.post(f"{base(scope)}/memories/search", json={"query": "nebula", "include_archived": True}).json()
    assert old in {h["id"] for h in hits["items"]}


def test_stale_flags_clear_when_the_condition_no_longer_holds(client: TestClient, scope: dict[str, Any],
                                                            raw: Driver) -> None:
    # The pass refreshes flags by index seeks (role-tier rows, rows flagged stale): a row that left the role tier
    # must still be found and cleared, as must a role-tier row recalled since.
    recalled = mem(client, scope, "comet recalled since", tier="role")
    retiered = mem(client, scope, "comet moved to the agent tier", tier="role")
    still = mem(client, scope, "comet still stale", tier="role")
    raw.execute_query("MATCH (a) WHERE a.id IN $ids SET a.accessed_at = datetime() - duration('P31D'), a.stale = true",
                      ids=[recalled, retiered, still])
    raw.execute_query("MATCH (a {id: $id}) SET a.recall_count = 2", id=recalled)
    raw.execute_query("MATCH (a {id: $id}) SET a.tier = 'agent'", id=retiered)
    d = by_artifact(run(client, scope, dry_run=True))
    assert set(d) == {still}
    run(client, scope)
    rows = raw.execute_query("MATCH (a) WHERE a.id IN $ids RETURN a.id AS id, a.stale AS stale, a.status AS status",
                             ids=[recalled, retiered, still]).records
    got = {r["id"]: (r["stale"], r["status"]) for r in rows}
    assert got == {recalled: (False, "active"), retiered: (False, "active"), still: (True, "archived")}


def test_as_of_evaluates_time_rules_at_another_instant(client: TestClient, scope: dict[str, Any]) -> None:
    fresh = mem(client, scope, "fresh role memory", tier="role")
    assert run(client, scope, dry_run=True)["decisions"] == []
    later = (datetime.now(UTC) + timedelta(days=31)).isoformat()
    d = by_artifact(run(client, scope, dry_run=True, as_of=later))
    assert d[fresh]["rule"] == "stale"
    r = client.post("/v1/digest/passes", json={"namespace": scope["namespace"], "cognitive_owner":
                                               scope["cognitive_owner"], "phases": ["archive"], "as_of": later})
    assert r.status_code == 422 and r.json()["code"] == "as_of_requires_dry_run"
    assert status(client, scope, fresh) == "active"


def test_supersession_marks_conflicted_and_the_digest_archives_citing_the_newer(
        client: TestClient, scope: dict[str, Any], raw: Driver) -> None:
    old = mem(client, scope, "我喜欢早上喝咖啡", kind="preference", subject="coffee")
    new = mem(client, scope, "我不再喜欢早上喝咖啡", kind="preference", subject="coffee")
    fine = mem(client, scope, "这家咖啡店不错", kind="preference", subject="coffee-shop")
    r = client.get(f"{base(scope)}/memories/{old}").json()
    assert r["conflicted"] is True
    assert client.get(f"{base(scope)}/memories/{new}").json()["conflicted"] is False
    assert client.get(f"{base(scope)}/memories/{fine}").json()["conflicted"] is False
    assert raw.execute_query("MATCH ({id: $n})-[:SUPERSEDES]->({id: $o}) RETURN count(*)", n=new, o=old
                             ).records[0][0] == 1
    # valid time: the older preference held until the newer one began; a search answers current truth unless asked
    assert r["valid_until"] is not None and r["valid_until"] == client.get(
        f"{base(scope)}/memories/{new}").json()["valid_from"]
    hits = client.post(f"{base(scope)}/memories/search", json={"query": "咖啡"}).json()["items"]
    assert old not in {h["id"] for h in hits} and new in {h["id"] for h in hits}
    hits = client.post(f"{base(scope)}/memories/search",
                       json={"query": "咖啡", "include_invalid": True}).json()["items"]
    assert {h["id"]: h["conflicted"] for h in hits}[old] is True
    d = by_artifact(run(client, scope))
    assert d[old]["rule"] == "conflicted" and d[old]["cites"] == [new]
    why = client.get(f"{base(scope)}/memories/{old}/views/cleanup").json()
    assert why["decisions"][0]["superseded_by"] == [new]


def test_supersession_by_derived_subject_and_english_markers(client: TestClient, scope: dict[str, Any]) -> None:
    old = mem(client, scope, "I like green tea in the morning", kind="preference")
    new = mem(client, scope, "I no longer like green tea in the morning", kind="preference")
    other = mem(client, scope, "Never deploy on Fridays", kind="constraint")
    assert client.get(f"{base(scope)}/memories/{old}").json()["conflicted"] is True
    assert client.get(f"{base(scope)}/memories/{other}").json()["conflicted"] is False
    assert client.get(f"{base(scope)}/memories/{new}").json()["subject"] is not None


def test_digest_classifies_raw_rows_and_supersedes_inside_the_partition(client: TestClient, scope: dict[str, Any],
                                                                         raw: Driver) -> None:
    ids = [unique("raw"), unique("raw")]
    raw.execute_query(
        "UNWIND [[$a, '我喜欢喝茶', 1], [$b, '我不要喝茶了', 2]] AS r "
        "CREATE (m:Artifact:Memory {id: r[0], scope_id: $s, family: 'memory', kind: 'preference', tier: 'agent', "
        "status: 'active', content: r[1], subject: 'tea', created_at: datetime() - duration({minutes: 10 - r[2]}), "
        "accessed_at: datetime(), recall_count: 0, stale: false, conflicted: false, revision: 1})",
        a=ids[0], b=ids[1], s=scope["id"])
    d = by_artifact(run(client, scope))
    assert d[ids[0]]["rule"] == "conflicted" and d[ids[0]]["cites"] == [ids[1]]


def test_two_owners_with_opposite_preferences_both_keep_theirs(client: TestClient) -> None:
    ns = unique("ns")
    s1 = client.post("/v1/scopes", json={"namespace": ns, "cognitive_owner": "alice", "name": "main"}).json()
    s2 = client.post("/v1/scopes", json={"namespace": ns, "cognitive_owner": "bob", "name": "main"}).json()
    a = mem(client, s1, "I like spicy food", kind="preference", subject="spicy-food")
    b = mem(client, s2, "I don't like spicy food", kind="preference", subject="spicy-food")
    for s in (s1, s2):
        out = run(client, s)
        assert out["decisions"] == []
    assert client.get(f"{base(s1)}/memories/{a}").json()["conflicted"] is False
    assert client.get(f"{base(s2)}/memories/{b}").json()["conflicted"] is False


def test_archive_and_remove_in_one_pass_is_refused(client: TestClient, scope: dict[str, Any]) -> None:
    r = client.post("/v1/digest/passes", json={"namespace": scope["namespace"], "cognitive_owner":
                                               scope["cognitive_owner"], "phases": ["archive", "remove"]})
    assert r.status_code == 422 and r.json()["code"] == "archive_and_remove_in_one_pass"
    r = client.post("/v1/digest/passes", json={"namespace": scope["namespace"], "cognitive_owner":
                                               scope["cognitive_owner"], "phases": ["compress"]})
    assert r.status_code == 422 and r.json()["field"].startswith("phases")


def test_remove_only_what_an_earlier_finished_pass_archived_and_is_still_eligible(
        client: TestClient, scope: dict[str, Any], raw: Driver) -> None:
    dep, healed, restored, target = (mem(client, scope, n) for n in ("dep", "healed", "restored", "target"))
    manual = mem(client, scope, "archived by hand")
    for x in (dep, restored):
        edge(client, scope, "DEPENDS_ON", x, target)
    edge(client, scope, "DEPENDS_ON", healed, manual)
    raw.execute_query("MATCH (a {id: $id}) SET a.status = 'archived'", id=manual)  # no decision behind it
    client.delete(f"{base(scope)}/memories/{target}", params={"detach": "true"})
    first = by_artifact(run(client, scope))
    assert set(first) == {dep, restored, healed}
    # heal one: its dependency comes back; restore another
    raw.execute_query("MATCH (a {id: $id}) SET a.status = 'active'", id=manual)
    assert client.post(f"{base(scope)}/memories/{restored}/restore").json()["status"] == "active"
    second = run(client, scope, "remove")
    d = by_artifact(second)
    assert d[dep]["action"] == "remove" and d[dep]["rule"] == "broken_reference"
    assert healed not in d and restored not in d and manual not in d
    assert client.get(f"{base(scope)}/memories/{dep}").json()["code"] == "artifact_removed"
    ops = [h["op"] for h in client.get(f"{base(scope)}/memories/{dep}/history").json()["items"] if h["type"] == "event"]
    assert ops == ["save", "archive", "remove"]
    why = client.get(f"{base(scope)}/memories/{dep}/views/cleanup").json()
    assert [x["action"] for x in why["decisions"]] == ["archive", "remove"] and why["status"] == "removed"
    # never archive and remove one artifact in one pass
    both = raw.execute_query("MATCH (p:DigestPass)-[:DECIDED]->(d1:Decision {action: 'archive'})-[:ABOUT]->(a), "
                             "(p)-[:DECIDED]->(d2:Decision {action: 'remove'})-[:ABOUT]->(a) RETURN count(*)"
                             ).records[0][0]
    assert both == 0
    assert client.post(f"{base(scope)}/memories/{healed}/restore").json()["status"] == "active"
    assert client.post(f"{base(scope)}/memories/{healed}/restore").json()["code"] == "not_archived"


def test_kernels_and_working_state_survive_every_pass(client: TestClient, scope: dict[str, Any],
                                                      raw: Driver) -> None:
    gone = mem(client, scope, "gone")
    ws = client.post(f"{base(scope)}/working-state", json={"content": "scratch"}).json()["id"]
    for k in (scope["agent_kernel_id"], scope["world_kernel_id"]):
        edge(client, scope, "DEPENDS_ON", k, gone)
    raw.execute_query("MATCH (w {id: $w}), (g {id: $g}) CREATE (w)-[:DEPENDS_ON]->(g)", w=ws, g=gone)
    raw.execute_query("MATCH (a) WHERE a.id IN $ids SET a.tier = 'role', a.accessed_at = datetime() - duration('P90D')",
                      ids=[scope["agent_kernel_id"], ws])
    client.delete(f"{base(scope)}/memories/{gone}", params={"detach": "true"})
    for phase in ("archive", "remove", "archive"):
        out = run(client, scope, phase)
        untouchable = {scope["agent_kernel_id"], scope["world_kernel_id"], ws}
        assert {d["artifact_id"] for d in out["decisions"]} & untouchable == set()
    n = raw.execute_query("MATCH (a:Artifact) WHERE a.id IN $ids AND a.status = 'active' RETURN count(a)",
                          ids=[scope["agent_kernel_id"], scope["world_kernel_id"], ws]).records[0][0]
    assert n == 3


def dependants_of_a_tombstone(client: TestClient, scope: dict[str, Any], n: int) -> list[str]:
    """n memories that DEPENDS_ON one that is then deleted: n broken references for an archive pass."""
    target = mem(client, scope, "target")
    deps = [mem(client, scope, f"dep {i}") for i in range(n)]
    for x in deps:
        edge(client, scope, "DEPENDS_ON", x, target)
    client.delete(f"{base(scope)}/memories/{target}", params={"detach": "true"})
    return deps


@contextmanager
def kill_switch(raw: Driver, predicate: str) -> Iterator[None]:
    """A before-commit APOC trigger that refuses any transaction creating a node `n` matching `predicate`
    (Cypher over `n`): live when this enters, gone when it exits (APOC picks trigger changes up on its refresh
    tick, so both are proved with a probe node)."""
    stmt = (f"UNWIND $createdNodes AS n WITH n WHERE n:KillSwitchProbe OR ({predicate}) WITH count(n) AS hits "
            "CALL apoc.util.validate(hits > 0, 'worker_killed: the test kill switch refused this transaction', []) "
            "RETURN hits")

    def await_switch(live: bool) -> None:
        deadline = time.monotonic() + 30
        while True:
            try:
                raw.execute_query("CREATE (:KillSwitchProbe)")
                raw.execute_query("MATCH (x:KillSwitchProbe) DELETE x")
                refused = False
            except Neo4jError as exc:
                assert "worker_killed" in str(exc)
                refused = True
            if refused == live:
                return
            assert time.monotonic() < deadline, f"the kill-switch trigger never became {'live' if live else 'gone'}"
            time.sleep(0.2)

    raw.execute_query("CALL apoc.trigger.install('neo4j', 'test_kill_switch', $stmt, {phase: 'before'})",
                      stmt=stmt, database_="system")
    try:
        await_switch(live=True)
        yield
    finally:
        raw.execute_query("CALL apoc.trigger.drop('neo4j', 'test_kill_switch')", database_="system")
        await_switch(live=False)


def test_one_pass_per_partition_and_a_killed_pass_resumes(client: TestClient, scope: dict[str, Any], raw: Driver,
                                                          on_graph: OnGraph) -> None:
    deps = dependants_of_a_tombstone(client, scope, 5)

    # Kill the pass in its third inner transaction (batches of 2, in artifact-id order): a before-commit trigger
    # of the test's own refuses the transaction that writes the last dependant's decision, so Neo4j itself
    # rolls that batch back after two batches committed, as when the worker or the server dies mid-pass.
    victim = max(deps)
    with kill_switch(raw, f"n:Decision AND n.id ENDS WITH ':{victim}:archive'"):
        req = passes.PassRequest(namespace=scope["namespace"], cognitive_owner=scope["cognitive_owner"],
                                 phases=["archive"], actor="test")
        with pytest.raises(CognitionError) as killed:
            on_graph(lambda g: passes.run_pass(g, req, batch=2))
        cause = killed.value.__cause__
        assert isinstance(cause, Neo4jError) and cause.code == "Neo.ClientError.Transaction.TransactionHookFailed"
    # consistent: every archived artifact has its decision, nothing else changed
    rows = raw.execute_query(
        "MATCH (a:Artifact) WHERE a.id IN $ids RETURN a.id AS id, a.status AS s, "
        "COUNT { (:Decision {action: 'archive'})-[:ABOUT]->(a) } AS n", ids=deps).records
    assert sum(1 for r in rows if r["s"] == "archived") == 4
    assert all((r["s"] == "archived") == (r["n"] == 1) for r in rows)
    # the partition is held: a second pass is refused while the lease lasts
    r = client.post("/v1/digest/passes", json={"namespace": scope["namespace"],
                                               "cognitive_owner": scope["cognitive_owner"], "phases": ["archive"]})
    assert r.status_code == 409 and r.json()["code"] == "digest_in_progress"
    raw.execute_query("MATCH (l:PartitionLease {id: $id}) SET l.lease_until = datetime() - duration('PT1S')",
                      id=f"{scope['namespace']}|{scope['cognitive_owner']}")
    out = run(client, scope)
    assert out["pass"]["resumed"] is True and out["pass"]["state"] == "finished"
    rows = raw.execute_query(
        "MATCH (a:Artifact) WHERE a.id IN $ids RETURN a.status AS s, "
        "COUNT { (:Decision {action: 'archive'})-[:ABOUT]->(a) } AS n", ids=deps).records
    assert all(r["s"] == "archived" and r["n"] == 1 for r in rows)
    # and the partition is free again
    assert run(client, scope)["pass"]["state"] == "finished"


def test_progress_follows_the_batches_as_they_commit(client: TestClient, scope: dict[str, Any],
                                                     on_graph: OnGraph) -> None:
    deps = dependants_of_a_tombstone(client, scope, 5)
    seen: list[tuple[int, int]] = []
    req = passes.PassRequest(namespace=scope["namespace"], cognitive_owner=scope["cognitive_owner"],
                             phases=["archive"], actor="test")
    out = on_graph(lambda g: passes.run_pass(g, req, batch=2, progress=lambda done, total: seen.append((done, total))))
    assert seen == [(2, 5), (4, 5), (5, 5)]  # one report per inner transaction (batches of 2)
    assert out["pass"]["n_archive"] == 5 and out["pass"]["n_applied"] == 5
    assert sorted(d["artifact_id"] for d in out["decisions"]) == sorted(deps)


def test_a_pass_refused_as_busy_is_run_again_and_finishes(client: TestClient, scope: dict[str, Any],
                                                           on_graph: OnGraph, raw: Driver,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    deps = dependants_of_a_tombstone(client, scope, 3)
    kept = deps.pop()  # a healthy supporter keeps it: a `keep` decision, which changes no status
    edge(client, scope, "SUPPORTS", mem(client, scope, "supporter"), kept)
    real = repo.run_decisions
    resumed: list[bool] = []

    async def busy_after_commit(graph: Any, kind: str, **kw: Any) -> Any:
        resumed.append(kw["resumed"])
        out = await real(graph, kind, **kw)
        if len(resumed) == 1:  # committed, then what translate() makes of a Neo.TransientError (e.g. a deadlock)
            raise Unavailable("Neo4j is busy; retry shortly", code="neo4j_busy")
        return out

    monkeypatch.setattr(repo, "run_decisions", busy_after_commit)
    req = passes.PassRequest(namespace=scope["namespace"], cognitive_owner=scope["cognitive_owner"],
                             phases=["archive"], actor="test")
    out = on_graph(lambda g: passes.run_pass(g, req))
    # the re-run looks its decisions up (the first run wrote them all): nothing is decided or applied twice
    assert resumed == [False, True]
    assert out["pass"]["state"] == "finished" and out["pass"]["n_archive"] == 2 and out["pass"]["n_keep"] == 1
    assert out["pass"]["n_applied"] == 3
    assert sorted(d["artifact_id"] for d in out["decisions"]) == sorted([*deps, kept])
    written = raw.execute_query("MATCH (:DigestPass {id: $p})-[:DECIDED]->(d:Decision)-[:ABOUT]->(a) "
                                "RETURN a.id AS a, d.action AS action", p=out["pass"]["id"]).records
    assert sorted((r["a"], r["action"]) for r in written) == sorted([*((d, "archive") for d in deps), (kept, "keep")])
    # a refusal that is not transient is not run again
    calls: list[int] = []

    async def refused(graph: Any, kind: str, **kw: Any) -> Any:
        calls.append(1)
        raise Invalid("refused", code="refused")

    monkeypatch.setattr(repo, "run_decisions", refused)
    with pytest.raises(Invalid):
        on_graph(lambda g: passes.run_pass(g, req))
    assert len(calls) == 1


def test_pass_is_readable_afterwards(client: TestClient, scope: dict[str, Any]) -> None:
    a, b = mem(client, scope, "a"), mem(client, scope, "b")
    edge(client, scope, "DEPENDS_ON", a, b)
    client.delete(f"{base(scope)}/memories/{b}", params={"detach": "true"})
    out = run(client, scope)
    again = client.get(f"/v1/digest/passes/{out['pass']['id']}").json()
    assert again["pass"]["state"] == "finished" and again["pass"]["n_archive"] == 1
    assert [d["artifact_id"] for d in again["decisions"]] == [a] and again["decisions"][0]["cites"] == [b]
    assert client.get("/v1/digest/passes/nope").status_code == 404


def test_refgraph_support_and_dependency_health_queries_return_evidence(client: TestClient, scope: dict[str, Any],
                                                                         raw: Driver) -> None:
    import cypher

    a, b, c, s = (mem(client, scope, n) for n in ("a", "b", "c", "supporter"))
    edge(client, scope, "DEPENDS_ON", a, b)
    edge(client, scope, "DEPENDS_ON", b, c)
    edge(client, scope, "SUPPORTS", s, a)
    rec = raw.execute_query(cypher.load("refgraph/dependency_health"), id=a).records[0]
    assert rec["healthy"] is True
    client.delete(f"{base(scope)}/memories/{c}", params={"detach": "true"})
    rec = raw.execute_query(cypher.load("refgraph/dependency_health"), id=a).records[0]
    assert rec["healthy"] is False and rec["path"] == [a, b, c]
    sup = raw.execute_query(cypher.load("refgraph/inbound_support"), id=a).records
    assert [(r["supporter"], r["healthy"], r["path"]) for r in sup] == [(s, True, [s, a])]
    raw.execute_query("MATCH (x {id: $id}) SET x.stale = true", id=s)
    sup = raw.execute_query(cypher.load("refgraph/inbound_support"), id=a).records
    assert sup[0]["healthy"] is False
