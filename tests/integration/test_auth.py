"""API keys and roles: 401 without a valid key, 404 outside the key's namespaces, 403 for a role that may not
do an operation on a scope it can see; keys stored only as hashes; revocation; the caches; the CLI."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver

import cypher
from graph.driver import Graph
from graph.errors import CognitionError
from service.cli import main as cli_main
from service.usecases import access as auth
from service.usecases import keys
from tests.conftest import BOOTSTRAP_KEY, MintKey, OnGraph, OnRuntime, bearer, unique


def base(scope: dict[str, Any]) -> str:
    return f"/v1/scopes/{scope['id']}"


MEMORY = {"kind": "semantic", "tier": "agent", "content": "the sky is blue"}


# ---- authentication -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer "}, {"Authorization": "Bearer cog_nope"},
                                     {"Authorization": f"Basic {BOOTSTRAP_KEY}"},
                                     {"Authorization": "Bearer " + "x" * 5000}])
def test_no_or_unknown_key_is_401(client: TestClient, scope: dict[str, Any], headers: dict[str, str]) -> None:
    for method, url in (("GET", f"{base(scope)}/memories"), ("POST", "/v1/scopes"), ("GET", "/v1/keys"),
                        ("GET", f"{base(scope)}")):
        r = client.request(method, url, headers={"Authorization": "", **headers},
                           json={"namespace": "x", "cognitive_owner": "y", "name": "z"} if method == "POST" else None)
        assert r.status_code == 401, (url, r.text)
        assert r.json()["code"] == "unauthenticated" and r.headers["WWW-Authenticate"] == "Bearer"


def test_health_and_metrics_need_no_key(client: TestClient) -> None:
    for url in ("/healthz", "/readyz", "/metrics", "/openapi.json"):
        assert client.get(url, headers={"Authorization": ""}).status_code == 200, url


def test_a_key_is_answered_once_and_stored_only_as_its_hash(client: TestClient, raw: Driver) -> None:
    ns = unique("ns")
    r = client.post("/v1/keys", json={"namespaces": [ns], "role": "agent"})
    assert r.status_code == 201, r.text
    created = r.json()
    secret, key_id = created["key"], created["id"]
    assert secret.startswith("cog_") and len(secret) >= 40
    node = raw.execute_query("MATCH (k:ApiKey {id: $id}) RETURN k", id=key_id).records[0]["k"]
    assert node["key_hash"] == hashlib.sha256(secret.encode()).hexdigest()
    assert node["role"] == "agent" and list(node["namespaces"]) == [ns] and node["revoked_at"] is None
    assert secret not in str(dict(node))  # nothing but the hash
    listed = client.get("/v1/keys").json()["items"]
    mine = [k for k in listed if k["id"] == key_id]
    assert mine and "key" not in mine[0] and "key_hash" not in mine[0]
    assert secret not in client.get("/v1/keys").text
    who = client.get("/v1/whoami", headers=bearer(secret)).json()
    assert who == {"key_id": key_id, "role": "agent", "namespaces": [ns]}


def test_revoked_key_is_refused_at_once_by_the_revoking_process(client: TestClient, mint_key: MintKey) -> None:
    key = mint_key("agent", [unique("ns")])
    key_id = client.get("/v1/whoami", headers=bearer(key)).json()["key_id"]
    assert client.get("/v1/whoami", headers=bearer(key)).status_code == 200  # cached now
    r = client.delete(f"/v1/keys/{key_id}")
    assert r.status_code == 200 and r.json()["revoked_at"]
    r = client.get("/v1/whoami", headers=bearer(key))
    assert r.status_code == 401 and r.json()["code"] == "unauthenticated"
    assert client.delete(f"/v1/keys/{key_id}").status_code == 200  # idempotent
    assert client.delete("/v1/keys/key-doesnotexist").status_code == 404


def test_a_revoke_made_elsewhere_takes_effect_within_the_ttl(on_graph: OnGraph, client: TestClient,
                                                              mint_key: MintKey, raw: Driver) -> None:
    key = mint_key("agent", [unique("ns")])
    key_id = client.get("/v1/whoami", headers=bearer(key)).json()["key_id"]
    clock = [1000.0]

    async def run(graph: Graph) -> list[str]:
        authn = auth.Authenticator(graph, ttl=5.0, clock=lambda: clock[0])
        seen = [(await authn.authenticate(key)).key_id]
        # Another process revokes it (straight in the database).
        raw.execute_query("MATCH (k:ApiKey {id: $id}) SET k.revoked_at = datetime()", id=key_id)
        clock[0] += 4.0
        seen.append((await authn.authenticate(key)).key_id)  # still within the TTL: cached
        clock[0] += 1.5
        try:
            await authn.authenticate(key)
        except auth.Unauthenticated as exc:
            seen.append(exc.message)
        return seen

    assert on_graph(run) == [key_id, key_id, "this API key was revoked"]


def test_verified_keys_and_scope_namespaces_are_cached(on_graph: OnGraph, scope: dict[str, Any]) -> None:
    """One request = one round trip: neither the key check nor the scope check goes to Neo4j once cached."""

    async def run(graph: Graph) -> int:
        authn = auth.Authenticator(graph, ttl=60.0)
        calls = 0
        original = graph.read

        async def counting(fn: Any, *a: Any, **kw: Any) -> Any:
            nonlocal calls
            calls += 1
            return await original(fn, *a, **kw)

        graph.read = counting  # type: ignore[method-assign]
        for _ in range(5):
            assert (await authn.authenticate(BOOTSTRAP_KEY)).role == "operator"
            assert await authn.scope_namespace(scope["id"]) == scope["namespace"]
        assert await authn.scope_namespace("no-such-scope") is None
        assert await authn.scope_namespace("no-such-scope") is None  # misses are not cached
        return calls

    assert on_graph(run) == 4


# ---- tenancy: 404 outside the key's namespaces ---------------------------------------------------------------

def test_a_scope_outside_the_keys_namespaces_is_404_like_a_missing_one(client: TestClient, tenant: dict[str, Any],
                                                                       mint_key: MintKey) -> None:
    outsider = mint_key("operator", [unique("ns")])
    url = base(tenant["scope"])
    for u in (url, f"{url}/memories", f"{url}/kernels/agent", f"{url}/write-policy"):
        theirs = client.get(u, headers=bearer(outsider))
        missing = client.get(u.replace(tenant["scope"]["id"], "0" * 32), headers=bearer(outsider))
        assert theirs.status_code == missing.status_code == 404, u
        assert theirs.json()["code"] == missing.json()["code"] == "scope_not_found"
    r = client.post(f"{url}/memories", json=MEMORY, headers=bearer(outsider))
    assert r.status_code == 404
    assert client.get(f"{url}/memories", headers=bearer(tenant["keys"]["auditor"])).status_code == 200


def test_creating_a_scope_needs_a_key_holding_its_namespace(client: TestClient, mint_key: MintKey) -> None:
    ns, other = unique("ns"), unique("ns")
    agent = mint_key("agent", [ns])
    body = {"namespace": ns, "cognitive_owner": "alice", "name": "main"}
    r = client.post("/v1/scopes", json=body, headers=bearer(agent))
    assert r.status_code == 201, r.text
    r = client.post("/v1/scopes", json=body | {"namespace": other}, headers=bearer(agent))
    assert r.status_code == 404 and r.json()["code"] == "namespace_not_found"
    auditor = mint_key("auditor", [ns])
    r = client.post("/v1/scopes", json=body | {"name": "second"}, headers=bearer(auditor))
    assert r.status_code == 403 and r.json()["code"] == "forbidden_role"


# ---- roles ---------------------------------------------------------------------------------------------------

def test_agent_reads_and_writes_but_cannot_approve_or_set_policy(client: TestClient, tenant: dict[str, Any]) -> None:
    agent = bearer(tenant["keys"]["agent"])
    url = base(tenant["scope"])
    r = client.post(f"{url}/memories", json=MEMORY, headers=agent)
    assert r.status_code == 201, r.text
    mid = r.json()["id"]
    assert client.get(f"{url}/memories/{mid}", headers=agent).status_code == 200
    assert client.post(f"{url}/memories/search", json={"query": "sky"}, headers=agent).status_code == 200
    r = client.put(f"{url}/write-policy", json={"default": "require_approval"}, headers=agent)
    assert r.status_code == 403 and r.json()["code"] == "forbidden_role"
    assert client.get(f"{url}/write-policy", headers=agent).status_code == 200
    # The operator turns approval on; the agent's next save is pending and only an operator approves it.
    op = bearer(tenant["keys"]["operator"])
    assert client.put(f"{url}/write-policy", json={"default": "require_approval"}, headers=op).status_code == 200
    pending = client.post(f"{url}/memories", json=MEMORY | {"content": "needs a look"}, headers=agent).json()
    assert pending["status"] == "pending"
    for action in ("approve", "reject"):
        r = client.post(f"{url}/memories/{pending['id']}/{action}", headers=agent)
        assert r.status_code == 403 and r.json()["code"] == "forbidden_role"
    assert client.post(f"{url}/memories/{pending['id']}/approve", headers=op).status_code == 200
    assert client.get("/v1/keys", headers=agent).json()["code"] == "forbidden_role"


def test_auditor_reads_everything_and_writes_nothing(client: TestClient, tenant: dict[str, Any]) -> None:
    auditor = bearer(tenant["keys"]["auditor"])
    url = base(tenant["scope"])
    mid = client.post(f"{url}/memories", json=MEMORY, headers=bearer(tenant["keys"]["agent"])).json()["id"]
    for u in (url, f"{url}/memories", f"{url}/memories/{mid}", f"{url}/memories/{mid}/history",
              f"{url}/memories/{mid}/views/lineage", f"{url}/kernels/world", f"{url}/write-policy"):
        assert client.get(u, headers=auditor).status_code == 200, u
    assert client.post(f"{url}/memories/search", json={"query": "sky"}, headers=auditor).status_code == 200
    refused = [client.post(f"{url}/memories", json=MEMORY, headers=auditor),
               client.patch(f"{url}/memories/{mid}", json={"content": "x"}, headers=auditor | {"If-Match": '"1"'}),
               client.delete(f"{url}/memories/{mid}", headers=auditor),
               client.put(f"{url}/kernels/agent", json={"content": "x"}, headers=auditor | {"If-Match": '"1"'}),
               client.delete(url, headers=auditor),
               client.post("/v1/keys", json={"namespaces": [tenant["namespace"]], "role": "auditor"}, headers=auditor)]
    for r in refused:
        assert r.status_code == 403 and r.json()["code"] == "forbidden_role", r.text
    assert client.get(f"{url}/memories/{mid}", headers=auditor).json()["revision"] == 1


def test_the_audit_trail_names_the_key(client: TestClient, tenant: dict[str, Any]) -> None:
    agent = tenant["keys"]["agent"]
    key_id = client.get("/v1/whoami", headers=bearer(agent)).json()["key_id"]
    url = base(tenant["scope"])
    mid = client.post(f"{url}/memories", json=MEMORY, headers=bearer(agent)).json()["id"]
    items = client.get(f"{url}/memories/{mid}/history").json()["items"]
    assert {i.get("actor") for i in items} == {key_id}


# ---- key management ------------------------------------------------------------------------------------------

def test_an_operator_manages_only_keys_within_its_namespaces(client: TestClient, mint_key: MintKey) -> None:
    a, b = unique("ns"), unique("ns")
    op_a = bearer(mint_key("operator", [a]))
    r = client.post("/v1/keys", json={"namespaces": [a], "role": "agent"}, headers=op_a)
    assert r.status_code == 201
    mine = r.json()["id"]
    for grant in ([b], [a, b], ["*"]):
        r = client.post("/v1/keys", json={"namespaces": grant, "role": "agent"}, headers=op_a)
        assert r.status_code == 404 and r.json()["code"] == "namespace_not_found", grant
    theirs = client.post("/v1/keys", json={"namespaces": [b], "role": "agent"}).json()["id"]
    listed = {k["id"] for k in client.get("/v1/keys", headers=op_a).json()["items"]}
    assert mine in listed and theirs not in listed
    assert all(k["namespaces"] == [a] for k in client.get("/v1/keys", headers=op_a).json()["items"])
    r = client.delete(f"/v1/keys/{theirs}", headers=op_a)
    assert r.status_code == 404 and r.json()["code"] == "key_not_found"
    assert client.delete(f"/v1/keys/{mine}", headers=op_a).status_code == 200


@pytest.mark.parametrize("body", [{"namespaces": [], "role": "agent"}, {"namespaces": ["a"], "role": "root"},
                                  {"namespaces": ["bad ns"], "role": "agent"}, {"namespaces": ["a"]},
                                  {"namespaces": "a", "role": "agent"}, {"namespaces": ["a"], "role": "agent", "x": 1}])
def test_bad_key_requests_are_422_naming_the_field(client: TestClient, body: dict[str, Any]) -> None:
    r = client.post("/v1/keys", json=body)
    assert r.status_code == 422 and r.json()["field"], r.text


# ---- bootstrap -----------------------------------------------------------------------------------------------

def test_the_first_key_is_generated_only_for_a_store_that_never_had_one(raw: Driver, on_runtime: OnRuntime) -> None:
    assert on_runtime(lambda rt: keys.ensure_first_key(rt, None)) is None  # this store has keys
    # On an empty store (simulated inside a transaction that is rolled back, so nothing changes):
    with raw.session() as session, session.begin_transaction() as tx:
        tx.run("MATCH (k:ApiKey) DETACH DELETE k").consume()
        tx.run("MATCH (b:ApiKeyBootstrap) DELETE b").consume()
        first = tx.run(cypher.load("keys/generate_first"), id="key-first", key_hash="h1", now=None).single()
        assert first is not None and first["key"]["role"] == "operator" and first["key"]["namespaces"] == ["*"]
        again = tx.run(cypher.load("keys/generate_first"), id="key-second", key_hash="h2", now=None).single()
        assert again is None
        tx.rollback()
    assert raw.execute_query("MATCH (k:ApiKey {id: 'key-first'}) RETURN count(k)").records[0][0] == 0


def test_a_short_bootstrap_key_is_refused(on_runtime: OnRuntime) -> None:
    with pytest.raises(CognitionError) as exc:
        on_runtime(lambda rt: keys.ensure_first_key(rt, "short"))
    assert exc.value.code == "weak_bootstrap_key"


def test_the_bootstrap_key_is_an_operator_holding_every_namespace(client: TestClient) -> None:
    who = client.get("/v1/whoami").json()
    assert who["role"] == "operator" and who["namespaces"] == ["*"]


# ---- the CLI -------------------------------------------------------------------------------------------------

def test_cli_keys_create_list_revoke(client: TestClient, neo4j_config: Any, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("NEO4J_URI", neo4j_config.uri)
    monkeypatch.setenv("NEO4J_PASSWORD", neo4j_config.password)
    ns = unique("ns")
    assert cli_main(["keys", "create", "--role", "auditor", "-n", ns]) == 0
    out = capsys.readouterr().out.splitlines()
    key_id, secret = out[0].split()[1], out[-1].strip()
    assert client.get("/v1/whoami", headers=bearer(secret)).json() == {"key_id": key_id, "role": "auditor",
                                                                       "namespaces": [ns]}
    assert cli_main(["keys", "list"]) == 0
    listing = capsys.readouterr().out
    assert key_id in listing and secret not in listing
    assert cli_main(["keys", "revoke", key_id]) == 0
    assert "revoked" in capsys.readouterr().out
    assert cli_main(["keys", "create", "--role", "agent", "-n", "bad ns"]) == 1
    assert cli_main(["keys", "revoke", "key-nope"]) == 1


# ---- partition routes: digest passes and GC runs ---------------------------------------------------------------

@pytest.mark.parametrize("route", ["/v1/digest/passes", "/v1/gc/runs"])
def test_partition_routes_need_an_operator_holding_the_namespace(client: TestClient, tenant: dict[str, Any],
                                                                  mint_key: MintKey, route: str) -> None:
    body = {"namespace": tenant["namespace"], "cognitive_owner": tenant["scope"]["cognitive_owner"],
            "phases": ["archive"]}
    for role in ("agent", "auditor"):
        r = client.post(route, json=body, headers=bearer(tenant["keys"][role]))
        assert r.status_code == 403 and r.json()["code"] == "forbidden_role", (role, r.text)
    outsider = mint_key("operator", [unique("ns")])
    r = client.post(route, json=body, headers=bearer(outsider))
    assert r.status_code == 404 and r.json()["code"] == "namespace_not_found"
    r = client.post(route, json=body, headers=bearer(tenant["keys"]["operator"]))
    assert r.status_code == 201, r.text
    pass_id = r.json()["pass"]["id"]
    if route.startswith("/v1/digest"):
        # Reading a pass (its decisions) is a read: any role holding the namespace; nobody else.
        assert client.get(f"{route}/{pass_id}", headers=bearer(tenant["keys"]["auditor"])).status_code == 200
        r = client.get(f"{route}/{pass_id}", headers=bearer(outsider))
        assert r.status_code == 404 and r.json()["code"] == "pass_not_found"
