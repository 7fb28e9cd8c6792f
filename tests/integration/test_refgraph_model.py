"""The broken-reference traversal (cypher/refgraph/broken_references.cypher) agrees with a networkx model of the
same graph on randomly generated refgraphs; its evidence paths are real DEPENDS_ON paths to the nearest broken
node."""

from __future__ import annotations

from typing import Any

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from neo4j import Driver

import cypher
from tests.conftest import unique

STATES = ["active", "active", "active", "archived", "conflicted", "tombstone"]


@st.composite
def refgraphs(draw: Any) -> tuple[list[str], list[tuple[int, int]]]:
    n = draw(st.integers(min_value=1, max_value=14))
    states = draw(st.lists(st.sampled_from(STATES), min_size=n, max_size=n))
    pairs = [(i, j) for i in range(n) for j in range(n) if i != j]
    edges = draw(st.lists(st.sampled_from(pairs), max_size=min(len(pairs), 30), unique=True)) if pairs else []
    return states, edges


def _load(raw: Driver, scope_id: str, states: list[str], edges: list[tuple[int, int]]) -> list[str]:
    ids = [f"{scope_id}-{i}" for i in range(len(states))]
    nodes = [{"id": ids[i], "state": s} for i, s in enumerate(states)]
    raw.execute_query(
        "UNWIND $nodes AS n "
        "CALL (n) { WITH n WHERE n.state = 'tombstone' "
        "  CREATE (:Tombstone {id: n.id, scope_id: $s, family: 'memory'}) } "
        "CALL (n) { WITH n WHERE n.state <> 'tombstone' "
        "  CREATE (:Artifact:Memory {id: n.id, scope_id: $s, family: 'memory', "
        "          status: CASE n.state WHEN 'archived' THEN 'archived' ELSE 'active' END, "
        "          conflicted: n.state = 'conflicted'}) }",
        nodes=nodes, s=scope_id)
    raw.execute_query("UNWIND $edges AS e MATCH (a {id: e[0]}), (b {id: e[1]}) CREATE (a)-[:DEPENDS_ON]->(b)",
                      edges=[[ids[i], ids[j]] for i, j in edges])
    return ids


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(refgraph=refgraphs())
def test_broken_references_match_a_networkx_model(client: Any, raw: Driver,
                                                  refgraph: tuple[list[str], list[tuple[int, int]]]) -> None:
    states, edges = refgraph
    scope = client.post("/v1/scopes", json={"namespace": unique("rg"), "cognitive_owner": "o", "name": "g"}).json()
    ids = _load(raw, scope["id"], states, edges)
    rows = raw.execute_query(cypher.load("refgraph/broken_references"), namespace=scope["namespace"],
                             owner=scope["cognitive_owner"]).records
    got = {r["id"]: r["path"] for r in rows}

    g = nx.DiGraph()
    g.add_nodes_from(ids)
    g.add_edges_from((ids[i], ids[j]) for i, j in edges)
    broken = {ids[i] for i, s in enumerate(states) if s != "active"}
    # the model: a non-broken node has a broken reference iff a DEPENDS_ON path reaches a broken node
    expected = {n for n in ids if n not in broken and nx.descendants(g, n) & broken}
    assert set(got) == expected
    # nearest broken node, by a multi-source search backwards from every broken node
    dist = nx.multi_source_dijkstra_path_length(g.reverse(copy=True), broken) if broken else {}
    for node, path in got.items():
        assert path[0] == node and path[-1] in broken
        assert all(g.has_edge(a, b) for a, b in zip(path, path[1:], strict=False))
        assert not set(path[1:-1]) & broken  # ends at the *first* broken node on the way
        assert len(path) - 1 == dist[node]
