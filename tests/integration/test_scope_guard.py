"""The scope invariants under both scope guards (graph/schema.py): with the APOC trigger live, and with no trigger
at all (the `queries` guard, as on a server without APOC triggers — here the same Community server with the
trigger dropped for this module). Every attempt through the service's own surfaces is refused the same way in both;
`cognition audit` finds what raw Cypher broke where nothing refused it. The raw-Cypher refusals themselves are the
trigger's alone (tests/integration/test_invariants.py), except a second kernel, which a constraint refuses in both."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from neo4j import Driver
from neo4j.exceptions import ClientError

from graph.driver import Graph, Neo4jConfig
from graph.schema import drop_triggers, install_triggers
from service.http.app import create_app
from service.settings import Settings
from tests.conftest import BOOTSTRAP_KEY, unique
from tests.served import Served, race

GUARDS = ("trigger", "queries")
Guarded = tuple[str, TestClient]


def _on(cfg: Neo4jConfig, fn: Callable[[Graph], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        graph = Graph.connect(cfg)
        try:
            return await fn(graph)
        finally:
            await graph.close()

    return asyncio.run(main())


@pytest.fixture(scope="module", params=GUARDS)
def guarded(request: pytest.FixtureRequest, settings: Settings, neo4j_config: Neo4jConfig,
            client: TestClient) -> Iterator[Guarded]:
    """The app under one guard; for `queries`, the trigger is dropped first and reinstalled (proven live) after."""
    guard: str = request.param
    if guard == "queries":
        _on(neo4j_config, drop_triggers)
    try:
        with TestClient(create_app(settings.model_copy(update={"scope_guard": guard}))) as c:
            c.headers["Authorization"] = f"Bearer {BOOTSTRAP_KEY}"
            yield guard, c
    finally:
        if guard == "queries":
            _on(neo4j_config, install_triggers)


def _scope(c: TestClient | httpx.Client, namespace: str | None = None, owner: str = "o") -> dict[str, Any]:
    r = c.post("/v1/scopes", json={"namespace": namespace or unique("ns"), "cognitive_owner": owner,
                                   "name": unique("s")})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def _save(c: TestClient | httpx.Client, scope_id: str, family: str = "memories", **body: Any) -> dict[str, Any]:
    if family == "memories":
        body = {"kind": "semantic", "tier": "agent", "content": unique("the deploy runs on Fridays "), **body}
    r = c.post(f"/v1/scopes/{scope_id}/{family}", json=body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def _cross_scope(raw: Driver, *ids: str) -> int:
    """Relationships touching these nodes whose two ends name different scopes."""
    n: int = raw.execute_query(
        "MATCH (a)-[r]-(b) WHERE a.id IN $ids AND a.scope_id <> b.scope_id RETURN count(r)", ids=list(ids)
    ).records[0][0]
    return n


def _audit(cfg: Neo4jConfig) -> tuple[int, dict[str, Any]]:
    """`cognition audit --json`, as an operator runs it, against the test server."""
    env = {**os.environ, "NEO4J_URI": cfg.uri, "NEO4J_USER": cfg.user, "NEO4J_PASSWORD": cfg.password}
    p = subprocess.run([sys.executable, "-m", "service.cli", "audit", "--json", "--examples", "10000"], env=env,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode in (0, 1), p.stderr
    report: dict[str, Any] = json.loads(p.stdout)
    assert report["ok"] is (p.returncode == 0)
    return p.returncode, {c["check"]: c for c in report["checks"]}


def test_health_and_readiness_name_the_guard(guarded: Guarded) -> None:
    guard, c = guarded
    assert c.get("/healthz").json()["scope_guard"] == guard
    r = c.get("/readyz")
    assert r.status_code == 200, r.text
    assert r.json()["scope_guard"] == guard
    assert r.json()["triggers_live"] == (["cognition_scope_invariants"] if guard == "trigger" else [])


def test_edges_across_scopes_are_refused(guarded: Guarded, raw: Driver) -> None:
    _, c = guarded
    a, b = _scope(c), _scope(c)
    ma, mb = _save(c, a["id"]), _save(c, b["id"])
    for t in ("SUPPORTS", "DEPENDS_ON", "DERIVED_FROM"):
        for frm, to in ((ma["id"], mb["id"]), (mb["id"], ma["id"]), (a["agent_kernel_id"], b["world_kernel_id"])):
            r = c.post(f"/v1/scopes/{a['id']}/edges", json={"type": t, "from_id": frm, "to_id": to})
            assert r.status_code == 404, (t, r.text)
    ka = _save(c, a["id"], "knowledge", title="Neo4j", body="a graph database")
    kb = _save(c, b["id"], "knowledge", title="Cypher", body="its query language")
    r = c.post(f"/v1/scopes/{a['id']}/edges", json={"type": "RELATES_TO", "relation": "explains",
                                                     "from_id": ka["id"], "to_id": kb["id"]})
    assert r.status_code == 404, r.text
    # at save time too: a relation to another scope's knowledge names nothing here
    r = c.post(f"/v1/scopes/{a['id']}/knowledge", json={"title": "x", "body": "y",
                                                         "relations": [{"type": "part_of", "to_id": kb["id"]}]})
    assert r.status_code == 404 and r.json()["code"] == "relation_target_not_found", r.text
    assert _cross_scope(raw, ma["id"], mb["id"], ka["id"], kb["id"], a["agent_kernel_id"]) == 0


def test_a_save_into_a_missing_or_deleted_scope_writes_nothing(guarded: Guarded, raw: Driver) -> None:
    _, c = guarded
    r = c.post(f"/v1/scopes/{unique('nope')}/memories", json={"kind": "semantic", "tier": "agent", "content": "x"})
    assert r.status_code == 404, r.text
    s = _scope(c)
    _save(c, s["id"])
    assert c.delete(f"/v1/scopes/{s['id']}").status_code == 200
    r = c.post(f"/v1/scopes/{s['id']}/memories", json={"kind": "semantic", "tier": "agent", "content": "late"})
    assert r.status_code == 404, r.text
    assert raw.execute_query("MATCH (n) WHERE n.scope_id = $s AND NOT n:Event RETURN count(n)", s=s["id"]
                             ).records[0][0] == 0


def test_supersession_never_crosses_scopes(guarded: Guarded, raw: Driver) -> None:
    """Two scopes of one partition: a negating memory in one never supersedes the other's, at save time or in a
    digest pass."""
    _, c = guarded
    ns, owner = unique("ns"), unique("o")
    a, b = _scope(c, ns, owner), _scope(c, ns, owner)
    old = _save(c, b["id"], content="The user lives in Paris", subject="user.city")
    new = _save(c, a["id"], content="The user no longer lives in Paris", subject="user.city")
    r = c.post("/v1/digest/passes", json={"namespace": ns, "cognitive_owner": owner, "phases": ["archive"]})
    assert r.status_code == 201, r.text
    assert _cross_scope(raw, old["id"], new["id"]) == 0
    assert c.get(f"/v1/scopes/{b['id']}/memories/{old['id']}").json()["conflicted"] is False


def test_an_import_that_breaks_a_scope_invariant_writes_nothing(guarded: Guarded, raw: Driver) -> None:
    """Well-formed files (the manifest rebuilt) that would break a scope invariant: refused whole."""
    from service.usecases.portability.format import build

    _, c = guarded
    src, other = _scope(c), _scope(c)
    m, m2 = _save(c, src["id"]), _save(c, src["id"])
    assert c.post(f"/v1/scopes/{src['id']}/edges", json={"type": "DEPENDS_ON", "from_id": m["id"],
                                                          "to_id": m2["id"]}).status_code == 201
    foreign = _save(c, other["id"])
    exported = c.get(f"/v1/scopes/{src['id']}/export")
    assert exported.status_code == 200
    rows = [json.loads(x) for x in exported.text.splitlines()][:-1]  # the manifest is rebuilt below
    kernel = next(r for r in rows if r.get("type") == "artifact" and r.get("family") == "world_kernel")
    tampered = {
        "second world kernel": [*rows, {**kernel, "id": unique("k")}],
        "no world kernel": [r for r in rows if r is not kernel],
        "an artifact of another scope": [*rows, {**kernel, "id": unique("m"), "family": "memory",
                                                 "scope_id": other["id"]}],
        "an edge out of the scope": [{**r, "to": foreign["id"]} if r["type"] == "edge" else r for r in rows],
    }
    assert tampered["an edge out of the scope"] != rows
    target = unique("ns")
    for what, bundle in tampered.items():
        body = build((o["type"], {k: v for k, v in o.items() if k != "type"}) for o in bundle)
        r = c.post("/v1/scopes/import", content=body, params={"namespace": target, "cognitive_owner": "o"},
                   headers={"Content-Type": "application/x-ndjson"})
        assert r.status_code == 422, (what, r.text)
        assert r.json()["code"] in ("import_line_invalid", "import_inconsistent"), (what, r.text)
    assert raw.execute_query("MATCH (s:Scope {namespace: $ns}) RETURN count(s)", ns=target).records[0][0] == 0
    assert _cross_scope(raw, m["id"], m2["id"], foreign["id"]) == 0


def test_raw_cypher_is_refused_by_the_trigger_and_found_by_the_audit_without_it(
        guarded: Guarded, raw: Driver, neo4j_config: Neo4jConfig) -> None:
    guard, c = guarded
    a, b = _scope(c), _scope(c)
    ma, mb = _save(c, a["id"]), _save(c, b["id"])
    # A second kernel is refused by the constraint under either guard, at the statement that makes it.
    with pytest.raises(ClientError):
        raw.execute_query("CREATE (:Artifact:WorldKernel {id: $id, scope_id: $s})", id=unique("k"), s=a["id"])
    orphan, bare = unique("orphan"), unique("bare")
    writes = [("MATCH (x {id: $a}), (y {id: $b}) CREATE (x)-[:DEPENDS_ON]->(y)", {"a": ma["id"], "b": mb["id"]}),
              ("CREATE (:Artifact:Memory {id: $id, scope_id: 'no-such-scope', family: 'memory'})", {"id": orphan}),
              ("CREATE (:Scope {id: $id, namespace: $id, cognitive_owner: 'o', name: 'bare'})", {"id": bare})]
    try:
        for stmt, params in writes:
            if guard == "trigger":
                with pytest.raises(ClientError):
                    raw.execute_query(stmt, params)
            else:
                raw.execute_query(stmt, params)
        code, checks = _audit(neo4j_config)
        cross = {(e["from_id"], e["to_id"]) for e in checks["cross_scope_reference"]["examples"]}
        orphans = {e["id"] for e in checks["artifact_without_scope"]["examples"]}
        kernels = {e["scope_id"]: e for e in checks["kernel_cardinality"]["examples"]}
        if guard == "trigger":  # nothing got in, anywhere in the store
            assert code == 0 and not cross and not orphans and not kernels, checks
        else:
            assert code == 1
            assert (ma["id"], mb["id"]) in cross and orphan in orphans, checks
            assert kernels[bare]["agent_kernels"] == 0 and kernels[bare]["world_kernels"] == 0
    finally:  # leave the store as the trigger requires it
        raw.execute_query("MATCH ({id: $a})-[r:DEPENDS_ON]->({id: $b}) DELETE r", a=ma["id"], b=mb["id"])
        raw.execute_query("MATCH (n) WHERE n.id IN [$o, $s] DETACH DELETE n", o=orphan, s=bare)
    if guard == "queries":
        code, checks = _audit(neo4j_config)
        assert code == 0, checks


def test_saves_racing_a_scope_delete_leave_no_orphan(guarded: Guarded, neo4j_config: Neo4jConfig,
                                                     tmp_path_factory: pytest.TempPathFactory) -> None:
    """Against `cognition serve` under the same guard: saves released together with the delete of their scope
    either land before it (and go with it) or find no scope; none leaves an artifact behind."""
    guard, _ = guarded
    served = Served(neo4j_config, BOOTSTRAP_KEY, extra_env={"COGNITION_SCOPE_GUARD": guard},
                    log=tmp_path_factory.mktemp("guard") / "serve.log")
    served.start()
    try:
        with served.client() as c:
            assert c.get("/healthz").json()["scope_guard"] == guard
            for _ in range(4):
                s = _scope(c)
                sid = s["id"]
                _save(c, sid)

                def act(i: int, cl: httpx.Client, sid: str = sid) -> int:
                    if i == 0:
                        return cl.delete(f"/v1/scopes/{sid}").status_code
                    return cl.post(f"/v1/scopes/{sid}/memories", json={
                        "kind": "semantic", "tier": "agent", "content": f"racing save {i}"}).status_code

                codes = race(9, act, make_client=served.client)
                assert codes[0] == 200 and set(codes[1:]) <= {201, 404}, codes
                assert c.get(f"/v1/scopes/{sid}").status_code == 404
        code, checks = _audit(neo4j_config)
        assert code == 0, checks
    finally:
        served.stop()
