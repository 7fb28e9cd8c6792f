"""Graph export for analysts, against the served process: each view in each format is read back with networkx
and its nodes and edges are checked against what plain Cypher finds in the database; another namespace's scope
is a 404 and none of its nodes ever appear; the CLI writes the same graph."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import networkx as nx
import pytest
from fastapi.testclient import TestClient
from neo4j import Driver

from graph.driver import Neo4jConfig
from tests.conftest import MintKey, unique
from tests.served import Served

Edges = Counter[tuple[str, str, str]]


def _scope(client: TestClient) -> dict[str, Any]:
    r = client.post("/v1/scopes", json={"namespace": unique("ns"), "cognitive_owner": unique("owner"), "name": "x"})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def _mem(client: TestClient, sid: str, content: str, **extra: Any) -> str:
    r = client.post(f"/v1/scopes/{sid}/memories", json={"kind": "fact", "tier": "agent", "content": content,
                                                        "tags": ["t1", "t2"], "metadata": {"k": [1, 2]}, **extra})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def _edge(client: TestClient, sid: str, type_: str, a: str, b: str, relation: str | None = None) -> None:
    body = {"type": type_, "from_id": a, "to_id": b, **({"relation": relation} if relation else {})}
    r = client.post(f"/v1/scopes/{sid}/edges", json=body)
    assert r.status_code == 201, r.text


def _populate(client: TestClient) -> dict[str, Any]:
    """A scope with revisions, every reference edge type, a tombstone and digest decisions (archive + keep)."""
    s = _scope(client)
    sid = s["id"]
    m1, m2, m3, m4 = (_mem(client, sid, f"memory {i} {unique()}") for i in range(1, 5))
    k = client.post(f"/v1/scopes/{sid}/knowledge", json={"title": "page", "body": "a page", "tags": ["kb"]}
                    ).json()["id"]
    sk = client.post(f"/v1/scopes/{sid}/skills", json={"name": "skill", "when_to_use": "now", "steps": ["a", "b"]}
                     ).json()["id"]
    _edge(client, sid, "DEPENDS_ON", m1, m2)
    _edge(client, sid, "DEPENDS_ON", m4, m2)
    _edge(client, sid, "SUPPORTS", m3, m1)
    _edge(client, sid, "DERIVED_FROM", m1, m3)
    _edge(client, sid, "RELATES_TO", k, m1, "about")
    _edge(client, sid, "RELATES_TO", k, m1, "cites")
    _edge(client, sid, "SUPPORTS", sk, m3)
    _edge(client, sid, "SUPPORTS", m3, k)
    for rev in (1, 2):  # m1 gets revisions 2 and 3: a PREVIOUS chain of length 2
        r = client.patch(f"/v1/scopes/{sid}/memories/{m1}", json={"content": f"memory 1 v{rev + 1}"},
                         headers={"If-Match": f'"{rev}"'})
        assert r.status_code == 200, r.text
    assert client.delete(f"/v1/scopes/{sid}/memories/{m2}", params={"detach": "true"}).status_code == 200
    r = client.post("/v1/digest/passes", json={"namespace": s["namespace"], "cognitive_owner": s["cognitive_owner"],
                                               "phases": ["archive"]})
    assert r.status_code == 201, r.text
    actions = {d["artifact_id"]: d["action"] for d in r.json()["decisions"]}
    assert actions.get(m4) == "archive" and actions.get(m1) == "keep", actions  # supported by m3
    return {**s, "m": [m1, m2, m3, m4], "k": k, "skill": sk}


@pytest.fixture(scope="module")
def scopes(client: TestClient) -> dict[str, Any]:
    """Two populated scopes in two namespaces: `mine` is exported, `other` must never show up."""
    return {"mine": _populate(client), "other": _populate(client)}


# ---- what plain Cypher says ----------------------------------------------------------------------------------

KEY = "CASE WHEN {v}:Revision THEN {v}.artifact_id + '@' + toString({v}.revision) ELSE {v}.id END"


def _truth(raw: Driver, view: str, sid: str) -> tuple[set[str], Edges]:
    if view == "lineage":
        nodes_q = ("MATCH (n) WHERE (n:Artifact OR n:Tombstone) AND n.scope_id = $s RETURN n.id AS k "
                   "UNION ALL MATCH (a:Artifact)-[:HAS_REVISION]->(r:Revision) WHERE a.scope_id = $s "
                   "RETURN r.artifact_id + '@' + toString(r.revision) AS k")
        edges_q = (f"MATCH (a)-[e:HAS_REVISION|PREVIOUS|DERIVED_FROM|DEPENDS_ON]->(b) "
                   f"WHERE a.scope_id = $s AND b.scope_id = $s "
                   f"RETURN {KEY.format(v='a')} AS a, type(e) AS t, {KEY.format(v='b')} AS b")
    elif view == "refgraph":
        nodes_q = "MATCH (n) WHERE (n:Artifact OR n:Tombstone) AND n.scope_id = $s RETURN n.id AS k"
        edges_q = ("MATCH (a)-[e:SUPPORTS|DEPENDS_ON|DERIVED_FROM|SUPERSEDES|RELATES_TO]->(b) "
                   "WHERE a.scope_id = $s AND b.scope_id = $s RETURN a.id AS a, type(e) AS t, b.id AS b")
    else:
        nodes_q = ("MATCH (p:DigestPass)-[:DECIDED]->(d:Decision)-[:ABOUT]->(a) WHERE a.scope_id = $s "
                   "OPTIONAL MATCH (d)-[:CITES]->(e) "
                   "UNWIND [p.id, d.id, a.id, e.id] AS k WITH k WHERE k IS NOT NULL RETURN DISTINCT k")
        edges_q = ("MATCH (p:DigestPass)-[r:DECIDED]->(d:Decision)-[:ABOUT]->(a) WHERE a.scope_id = $s "
                   "RETURN p.id AS a, type(r) AS t, d.id AS b "
                   "UNION ALL MATCH (d:Decision)-[r:ABOUT|CITES]->(x) WHERE d.scope_id = $s "
                   "RETURN d.id AS a, type(r) AS t, x.id AS b")
    nodes = {r["k"] for r in raw.execute_query(nodes_q, s=sid).records}
    edges = Counter((r["a"], r["t"], r["b"]) for r in raw.execute_query(edges_q, s=sid).records)
    return nodes, edges


def _edges_of(g: Any) -> Edges:
    return Counter((u, d["type"], v) for u, v, d in g.edges(data=True))


def _read(body: bytes, fmt: str) -> Any:
    if fmt == "graphml":
        return nx.read_graphml(io.BytesIO(body), force_multigraph=True)
    return nx.node_link_graph(json.loads(body), edges="edges")


# ---- the tests --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["graphml", "node-link"])
@pytest.mark.parametrize("view", ["lineage", "refgraph", "decisions"])
def test_export_reads_back_with_networkx_and_matches_cypher(served: Served, scopes: dict[str, Any], raw: Driver,
                                                            view: str, fmt: str) -> None:
    mine, other = scopes["mine"], scopes["other"]
    r = httpx.get(f"{served.url}/v1/scopes/{mine['id']}/graph", params={"view": view, "format": fmt},
                  headers=served.headers(), timeout=60)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/graphml+xml" if fmt == "graphml"
                                                else "application/json")
    g = _read(r.content, fmt)
    assert g.is_directed() and g.is_multigraph()
    nodes, edges = _truth(raw, view, mine["id"])
    assert nodes and edges  # the fixture made something to export in every view
    assert set(g.nodes) == nodes
    assert _edges_of(g) == edges
    other_ids = set(_truth(raw, view, other["id"])[0])
    assert not other_ids & set(g.nodes)
    assert all(d.get("scope_id") in (None, mine["id"]) for _, d in g.nodes(data=True))
    assert other["id"] not in r.text


def test_graphml_attributes_are_plain_values(served: Served, scopes: dict[str, Any]) -> None:
    mine = scopes["mine"]
    m1, m2, _, m4 = mine["m"]
    r = httpx.get(f"{served.url}/v1/scopes/{mine['id']}/graph", params={"view": "lineage", "format": "graphml"},
                  headers=served.headers(), timeout=60)
    g = nx.read_graphml(io.BytesIO(r.content), force_multigraph=True)
    node = g.nodes[m1]
    assert node["label"] == "Memory" and json.loads(node["labels"]) == ["Artifact", "Memory"]
    assert json.loads(node["tags"]) == ["t1", "t2"]  # lists as JSON strings
    assert json.loads(node["metadata"]) == {"k": [1, 2]}  # (stored as JSON already)
    assert isinstance(datetime.fromisoformat(node["created_at"]), datetime)  # ISO 8601
    assert node["revision"] == 3 and isinstance(node["trust"], float) and node["stale"] is False
    assert "content" not in node and "embedding" not in node  # text only with content=true; vectors never
    assert g.nodes[m2]["label"] == "Tombstone" and g.nodes[m2]["status"] == "removed"
    assert [v for _, v, k in g.out_edges(f"{m1}@3", keys=True) if k == "PREVIOUS"] == [f"{m1}@2"]
    assert [v for _, v, k in g.out_edges(f"{m1}@2", keys=True) if k == "PREVIOUS"] == [f"{m1}@1"]
    assert g.nodes[m4]["status"] == "archived"
    r = httpx.get(f"{served.url}/v1/scopes/{mine['id']}/graph",
                  params={"view": "refgraph", "format": "node-link", "content": "true"},
                  headers=served.headers(), timeout=60)
    g2 = nx.node_link_graph(r.json(), edges="edges")
    assert g2.nodes[m1]["content"] == "memory 1 v3"
    assert g2.nodes[m1]["tags"] == ["t1", "t2"]  # node-link keeps lists as lists
    assert g2.nodes[mine["skill"]]["steps"] == ["a", "b"]
    relations = sorted(d["relation"] for _, _, d in g2.edges(mine["k"], data=True) if d["type"] == "RELATES_TO")
    assert relations == ["about", "cites"]  # two RELATES_TO between one pair: a multigraph keeps both


def test_analyst_recipe_from_the_readme(served: Served, scopes: dict[str, Any]) -> None:
    """The README's recipe: broken references and the most relied-on supporters, with networkx alone."""
    mine = scopes["mine"]
    m1, m2, m3, m4 = mine["m"]
    r = httpx.get(f"{served.url}/v1/scopes/{mine['id']}/graph", params={"view": "refgraph", "format": "graphml"},
                  headers=served.headers(), timeout=60)
    g = nx.read_graphml(io.BytesIO(r.content), force_multigraph=True)
    deps = nx.DiGraph([(u, v) for u, v, t in g.edges(data="type") if t == "DEPENDS_ON"])
    broken = {n for n, d in g.nodes(data=True) if d["label"] == "Tombstone" or d.get("status") == "archived"
              or d.get("conflicted")}
    reaches_broken = {a for b in broken if b in deps for a in nx.ancestors(deps, b)}
    assert reaches_broken == {m1, m4}
    supporters = Counter(u for u, _, t in g.edges(data="type") if t == "SUPPORTS")
    assert supporters.most_common() == [(m3, 2), (mine["skill"], 1)]
    assert m2 in broken


def test_another_namespaces_scope_is_a_404(served: Served, scopes: dict[str, Any], mint_key: MintKey) -> None:
    outsider = mint_key("auditor", [scopes["other"]["namespace"]])
    r = httpx.get(f"{served.url}/v1/scopes/{scopes['mine']['id']}/graph", params={"view": "refgraph"},
                  headers=served.headers(outsider), timeout=60)
    assert r.status_code == 404 and r.json()["code"] == "scope_not_found"
    assert scopes["mine"]["m"][0] not in r.text
    r = httpx.get(f"{served.url}/v1/scopes/{scopes['other']['id']}/graph", params={"view": "refgraph"},
                  headers=served.headers(outsider), timeout=60)
    assert r.status_code == 200  # an auditor of its own namespace may export
    assert httpx.get(f"{served.url}/v1/scopes/{scopes['mine']['id']}/graph", timeout=60).status_code == 401


def test_bad_parameters_and_the_cap(served: Served, scopes: dict[str, Any]) -> None:
    url = f"{served.url}/v1/scopes/{scopes['mine']['id']}/graph"
    r = httpx.get(url, params={"view": "everything"}, headers=served.headers(), timeout=60)
    assert r.status_code == 422 and r.json()["field"] == "view"
    r = httpx.get(url, params={"format": "gexf"}, headers=served.headers(), timeout=60)
    assert r.status_code == 422 and r.json()["field"] == "format"
    r = httpx.get(url, params={"view": "lineage", "max_nodes": 3}, headers=served.headers(), timeout=60)
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["code"] == "export_too_large" and body["node_count"] > 3 and body["max_nodes"] == 3
    r = httpx.get(f"{served.url}/v1/scopes/{unique('nope')}/graph", headers=served.headers(), timeout=60)
    assert r.status_code == 404


def test_cli_writes_the_same_graph(scopes: dict[str, Any], neo4j_config: Neo4jConfig, raw: Driver,
                                   tmp_path: Path) -> None:
    mine = scopes["mine"]
    env = {"NEO4J_URI": neo4j_config.uri, "NEO4J_USER": neo4j_config.user, "NEO4J_PASSWORD": neo4j_config.password,
           "PATH": str(Path(sys.executable).parent)}
    exe = str(Path(sys.executable).with_name("cognition"))
    proc = subprocess.run([exe, "export", "graph", "--scope", mine["id"], "--view", "decisions",
                           "--format", "graphml"], env=env, capture_output=True, timeout=180)
    assert proc.returncode == 0, proc.stderr.decode()
    g = nx.read_graphml(io.BytesIO(proc.stdout), force_multigraph=True)
    nodes, edges = _truth(raw, "decisions", mine["id"])
    assert set(g.nodes) == nodes and _edges_of(g) == edges
    out = tmp_path / "lineage.json"
    proc = subprocess.run([exe, "export", "graph", "--scope", mine["id"], "--view", "lineage", "--format",
                           "node-link", "-o", str(out)], env=env, capture_output=True, timeout=180)
    assert proc.returncode == 0, proc.stderr.decode()
    g = nx.node_link_graph(json.loads(out.read_text()), edges="edges")
    assert set(g.nodes) == _truth(raw, "lineage", mine["id"])[0]
    proc = subprocess.run([exe, "export", "graph", "--scope", unique("nope")], env=env, capture_output=True,
                          timeout=180)
    assert proc.returncode == 1 and b"scope_not_found" in proc.stderr
