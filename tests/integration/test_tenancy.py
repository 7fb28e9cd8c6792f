"""Tenant isolation, walked over the whole API: every operation in the OpenAPI document, called with a key
from another namespace (each role), sees and changes nothing. Routes added later are walked automatically.

- no answer is a 2xx (except the caller's own key listing / whoami, which must not mention the victim);
- each answer equals the answer for a scope / namespace that does not exist (status and code): a 404, never
  a 403 confirming existence;
- no answer contains the victim's content or any victim id the request did not itself carry;
- a fingerprint of everything the victim owns in the graph is identical before and after.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver

from tests.conftest import MintKey, bearer, unique

SECRET = "VICTIM-SECRET-4242"
MISSING_SCOPE = "0" * 32


@pytest.fixture(scope="module")
def victim(client: TestClient) -> dict[str, Any]:
    """Namespace A with one scope holding one of everything, made by the bootstrap operator."""
    ns, owner = unique("victim"), unique("owner")
    scope = client.post("/v1/scopes", json={"namespace": ns, "cognitive_owner": owner, "name": "main"}).json()
    url = f"/v1/scopes/{scope['id']}"

    def post(path: str, body: dict[str, Any]) -> str:
        r = client.post(f"{url}/{path}", json=body)
        assert r.status_code == 201, r.text
        return str(r.json()["id"])

    mem = {"kind": "semantic", "tier": "agent", "content": f"{SECRET} the vault code is 1234"}
    ids = {
        "memory": post("memories", mem),
        "memory2": post("memories", mem | {"content": f"{SECRET} derived"}),
        "knowledge": post("knowledge", {"title": f"{SECRET} page", "body": f"{SECRET} body"}),
        "skill": post("skills", {"name": f"{SECRET} skill", "when_to_use": SECRET, "steps": [SECRET]}),
        "working_state": post("working-state", {"content": f"{SECRET} scratch"}),
    }
    assert client.post(f"{url}/edges", json={"type": "DEPENDS_ON", "from_id": ids["memory2"],
                                             "to_id": ids["memory"]}).status_code == 201
    assert client.put(f"{url}/write-policy", json={"default": "require_approval"}).status_code == 200
    ids["pending"] = post("memories", mem | {"content": f"{SECRET} pending"})
    key = client.post("/v1/keys", json={"namespaces": [ns], "role": "operator"}).json()
    r = client.post("/v1/digest/passes", json={"namespace": ns, "cognitive_owner": owner, "phases": ["archive"]})
    pass_id = r.json().get("pass", {}).get("id") if r.status_code == 201 else None
    return {"namespace": ns, "owner": owner, "scope": scope, "ids": ids, "key_id": key["id"], "pass_id": pass_id}


def victim_ids(v: dict[str, Any]) -> set[str]:
    out = {v["scope"]["id"], v["scope"]["agent_kernel_id"], v["scope"]["world_kernel_id"], v["key_id"],
           v["namespace"], v["owner"], *v["ids"].values()}
    return out | ({v["pass_id"]} if v["pass_id"] else set())


def fingerprint(raw: Driver, v: dict[str, Any]) -> str:
    """Everything A owns: its scope(s), every node carrying its scope id, its keys and passes, and every
    relationship touching them (so a decision or edge made by someone else would show)."""
    rows = raw.execute_query("""
        MATCH (n)
        WHERE n.scope_id = $sid OR (n:Scope AND (n.id = $sid OR n.namespace = $ns))
           OR (n:ApiKey AND $ns IN n.namespaces) OR (n:DigestPass AND n.namespace = $ns)
           OR (n:IdempotencyKey AND n.id STARTS WITH $sid)
        OPTIONAL MATCH (n)-[r]-(m)
        WITH n, collect([type(r), startNode(r) = n, properties(r), coalesce(m.id, elementId(m))]) AS rels
        RETURN labels(n) AS labels, properties(n) AS props, rels
    """, sid=v["scope"]["id"], ns=v["namespace"]).records
    canon = sorted(json.dumps([sorted(r["labels"]), r["props"], sorted(json.dumps(x, default=str) for x in r["rels"])],
                              sort_keys=True, default=str) for r in rows)
    assert len(canon) > 10  # the walk compares something real
    return hashlib.sha256("\n".join(canon).encode()).hexdigest()


# ---- building a plausible request for any operation ------------------------------------------------------------

def _resolve(doc: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = doc["components"]["schemas"][schema["$ref"].split("/")[-1]]
    return schema


def sample(doc: dict[str, Any], schema: dict[str, Any], name: str, v: dict[str, Any]) -> Any:
    """A value the schema accepts, preferring the victim's identifiers for fields that name them."""
    named = {"namespace": v["namespace"], "cognitive_owner": v["owner"], "from_id": v["ids"]["memory2"],
             "to_id": v["ids"]["memory"], "namespaces": [v["namespace"]], "scope_id": v["scope"]["id"]}
    if name in named:
        return named[name]
    schema = _resolve(doc, schema)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = [s for s in schema[key] if _resolve(doc, s).get("type") != "null"]
            return sample(doc, options[0], name, v)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        props = schema.get("properties", {})
        return {k: sample(doc, props[k], k, v) for k in props if k in schema.get("required", []) or k in named}
    if kind == "array":
        return [sample(doc, schema.get("items", {}), name, v)] * max(1, schema.get("minItems", 1))
    if kind == "integer":
        return max(1, schema.get("minimum", 1))
    if kind == "number":
        return 0.5
    if kind == "boolean":
        return False
    return "a1"


KNOWN_BODIES: list[tuple[str, str, dict[str, Any]]] = [
    ("POST", r"/memories/batch$", {"items": [{"kind": "fact", "tier": "agent", "content": "x"}]}),
    ("POST", r"/search$", {"query": "vault"}),
    ("POST", r"/memories$", {"kind": "fact", "tier": "agent", "content": "x"}),
    ("POST", r"/knowledge$", {"title": "x", "body": "x"}),
    ("POST", r"/skills$", {"name": "x", "when_to_use": "x", "steps": ["x"]}),
    ("POST", r"/working-state$", {"content": "x"}),
    ("PATCH", r"/knowledge/\{item_id\}$", {"body": "overwritten"}),
    ("PATCH", r"/skills/\{item_id\}$", {"name": "overwritten"}),
    ("PATCH", r"/\{item_id\}$", {"content": "overwritten"}),
    ("PUT", r"/kernels/\{which\}$", {"content": "overwritten"}),
    ("PUT", r"/write-policy$", {"default": "deny"}),
    ("POST", r"/(approve|reject|restore)$", {"reason": "x"}),
]


def build(doc: dict[str, Any], method: str, path: str, op: dict[str, Any], v: dict[str, Any],
          scope_id: str) -> dict[str, Any]:
    family = next((f for seg, f in (("/memories", "memory"), ("/knowledge", "knowledge"), ("/skills", "skill"),
                                    ("/working-state", "working_state")) if seg in path), "memory")
    item = v["ids"]["pending"] if re.search(r"/(approve|reject)$", path) else v["ids"][family]
    values = {"scope_id": scope_id, "item_id": item, "which": "agent", "view": "lineage", "key_id": v["key_id"],
              "pass_id": v["pass_id"] or MISSING_SCOPE}
    url, query, headers = path, {}, {"If-Match": '"1"'}
    for p in op.get("parameters", []):
        if p["in"] == "path":
            url = url.replace("{" + p["name"] + "}", str(values.get(p["name"], MISSING_SCOPE)))
        elif p["in"] == "query" and p.get("required"):
            query[p["name"]] = "DEPENDS_ON" if p["name"] == "type" else sample(doc, p["schema"], p["name"], v)
    body = None
    if "requestBody" in op:
        body = next((b for m, pat, b in KNOWN_BODIES if m == method and re.search(pat, path)), None)
        if body is None:
            schema = op["requestBody"]["content"]["application/json"]["schema"]
            body = sample(doc, schema, "", v)
    return {"method": method, "url": url, "params": query, "headers": headers, "json": body}


def operations(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(m.upper(), p, op) for p, item in doc["paths"].items() if p.startswith("/v1/") for m, op in item.items()]


# The attacker's own, legitimately answered: they must still say nothing about the victim.
OWN = {("GET", "/v1/whoami"), ("GET", "/v1/keys"), ("GET", "/v1/webhooks")}


@pytest.mark.parametrize("role", ["agent", "operator", "auditor"])
def test_a_key_from_another_namespace_sees_and_changes_nothing(client: TestClient, raw: Driver, victim: dict[str, Any],
                                                               mint_key: MintKey, role: str) -> None:
    doc = client.get("/openapi.json").json()
    attacker = bearer(mint_key(role, [unique("attacker")]))
    # the victim's events numbered now: the background sequencer must not change them during the walk
    assert client.get("/v1/events", params={"namespace": victim["namespace"]}).status_code == 200
    before = fingerprint(raw, victim)
    secrets_of_victim = victim_ids(victim)
    walked = 0
    for method, path, op in operations(doc):
        req = build(doc, method, path, op, victim, victim["scope"]["id"])
        r = client.request(req["method"], req["url"], params=req["params"], json=req["json"],
                           headers=req["headers"] | attacker)
        walked += 1
        where = f"{role} {method} {path} -> {r.status_code} {r.text[:300]}"
        sent = json.dumps(req, default=str)
        leaked = [i for i in secrets_of_victim if i in r.text and i not in sent]
        assert SECRET not in r.text and not leaked, where
        if (method, path) in OWN:
            continue
        assert not 200 <= r.status_code < 300, where
        # Indistinguishable from asking about something that does not exist.
        if "{scope_id}" in path:
            twin = build(doc, method, path, op, victim, MISSING_SCOPE)
        elif isinstance(req["json"], dict) and "namespace" in req["json"]:
            twin = req | {"json": req["json"] | {"namespace": unique("nobody")}}
        else:
            twin = None
        if twin is not None:
            t = client.request(twin["method"], twin["url"], params=twin["params"], json=twin["json"],
                               headers=twin["headers"] | attacker)
            assert (r.status_code, r.json().get("code")) == (t.status_code, t.json().get("code")), where
            assert r.status_code in (403, 404) or role != "operator", where
    assert walked == len(operations(doc)) and walked > 40
    assert fingerprint(raw, victim) == before


def test_every_v1_operation_needs_a_key(client: TestClient, victim: dict[str, Any]) -> None:
    doc = client.get("/openapi.json").json()
    for method, path, op in operations(doc):
        req = build(doc, method, path, op, victim, victim["scope"]["id"])
        r = client.request(req["method"], req["url"], params=req["params"], json=req["json"],
                           headers=req["headers"] | {"Authorization": ""})
        assert r.status_code == 401 and r.json()["code"] == "unauthenticated", f"{method} {path}: {r.text}"
        assert op.get("security") == [{"bearer": []}], f"{method} {path} does not document its key"


def test_the_owner_walk_reaches_real_data(client: TestClient, victim: dict[str, Any]) -> None:
    """The same requests with the victim's own operator key do reach the data (so the walk above is not
    vacuous: its 404s come from tenancy, not from malformed requests)."""
    doc = client.get("/openapi.json").json()
    reads = [(m, p, op) for m, p, op in operations(doc) if m == "GET" and "{scope_id}" in p]
    ok = 0
    for method, path, op in reads:
        req = build(doc, method, path, op, victim, victim["scope"]["id"])
        r = client.request(req["method"], req["url"], params=req["params"], headers=req["headers"])
        ok += 200 <= r.status_code < 300
    assert ok >= len(reads) - 2, ok  # e.g. the pending record's views may legitimately 404
