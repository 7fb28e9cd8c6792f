"""Graph export for analysts: one scope's lineage, refgraph or decisions as a networkx graph.

The queries are `cypher/export/<view>.cypher` (paste them into Neo4j Browser with `:param`); each answers the
scope's nodes and the edges among them in one round trip, or only the node count when the view is larger
than the cap. Here the rows become a `networkx.MultiDiGraph` (a pair of artifacts may carry several
RELATES_TO edges) whose attributes are plain values: temporal values as ISO 8601 strings, no `None`.
`graphml_ready` then turns lists and maps into JSON strings, the one thing GraphML cannot carry.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from neo4j import AsyncManagedTransaction

from graph.driver import run_named

VIEWS = ("lineage", "refgraph", "decisions")
FORMATS = ("graphml", "node-link")
MAX_NODES = 20_000  # default cap on one export; a request may lower or raise it up to HARD_MAX_NODES
HARD_MAX_NODES = 100_000


@dataclass(frozen=True, slots=True)
class Export:
    """What a view query answered: whether the scope exists, its node count, and (within the cap) the rows."""

    found: bool
    node_count: int
    nodes: list[dict[str, Any]]
    edges: list[dict[str, Any]]


async def fetch(tx: AsyncManagedTransaction, *, view: str, scope_id: str, max_nodes: int,
                content: bool) -> Export:
    if view not in VIEWS:  # names a file: checked against the allow-list, never interpolated
        raise ValueError(f"unknown export view {view!r}")
    rows = await run_named(tx, f"export/{view}", scope_id=scope_id, max_nodes=max_nodes, content=content)
    row = rows[0]
    return Export(bool(row["found"]), int(row["node_count"]), json.loads(row["nodes"] or "[]"),
                  json.loads(row["edges"] or "[]"))


def plain(value: Any) -> Any:
    """A property value as JSON would hold it: temporal values as ISO 8601, inside lists and maps too."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    iso = getattr(value, "iso_format", None)  # neo4j.time.DateTime / Date / Time / Duration
    if callable(iso):
        return iso()
    isoformat = getattr(value, "isoformat", None)  # datetime, date, time
    if callable(isoformat):
        return isoformat()
    return value


def _attrs(props: dict[str, Any]) -> dict[str, Any]:
    return {str(k): plain(v) for k, v in props.items() if v is not None}


def node_label(labels: list[str]) -> str:
    """The most specific label: an artifact's family label (Memory, Knowledge, …), else the node's one label."""
    specific = [lb for lb in labels if lb != "Artifact"]
    return sorted(specific)[0] if specific else (labels[0] if labels else "")


def build(export: Export) -> Any:
    """The rows as a `networkx.MultiDiGraph`. Node attributes: the node's properties, `label` (its most
    specific label) and `labels`; edge attributes: `type` (the relationship type, also the edge key) and the
    relationship's properties (RELATES_TO's own `type` becomes `relation`, as in the edges API)."""
    import networkx as nx  # ≈ 0.1 s of imports: loaded by the first export, not by every start

    g = nx.MultiDiGraph()
    for n in export.nodes:
        attrs = _attrs(n["props"])
        attrs["label"] = node_label(list(n["labels"]))
        attrs["labels"] = sorted(n["labels"])
        g.add_node(n["key"], **attrs)
    for e in export.edges:
        if e["source"] not in g or e["target"] not in g:
            continue  # only edges between nodes of the export
        attrs = _attrs(e["props"])
        if "type" in attrs:
            attrs["relation"] = attrs.pop("type")
        g.add_edge(e["source"], e["target"], key=_edge_key(g, e), type=e["type"], **attrs)
    return g


def _edge_key(g: Any, e: dict[str, Any]) -> str:
    base = str(e["type"])
    rel = (e.get("props") or {}).get("type")
    key = f"{base}:{rel}" if rel else base
    n, candidate = 1, key
    while g.has_edge(e["source"], e["target"], candidate):
        n += 1
        candidate = f"{key}#{n}"
    return candidate


def graphml_ready(g: Any) -> Any:
    """A copy whose list and map attributes are JSON strings (GraphML holds only str, int, float, bool)."""
    out = g.copy()

    def fix(attrs: dict[str, Any]) -> None:
        for k, v in list(attrs.items()):
            if isinstance(v, (list, dict)):
                attrs[k] = json.dumps(v, ensure_ascii=False, sort_keys=True)

    for _, attrs in out.nodes(data=True):
        fix(attrs)
    for _, _, attrs in out.edges(data=True):
        fix(attrs)
    return out


def graphml_lines(g: Any) -> Iterator[str]:
    """GraphML text, line by line (streamed by the API). Numeric types are inferred across all values, so an
    attribute that is an int on one node and a float on another is declared a double."""
    import networkx as nx

    writer = nx.readwrite.graphml.GraphMLWriter(infer_numeric_types=True)
    writer.add_graph_element(graphml_ready(g))
    return iter(str(writer).splitlines())


def node_link(g: Any) -> dict[str, Any]:
    """networkx node-link JSON, edges under `edges` (networkx's current spelling, asked for explicitly)."""
    import networkx as nx

    data: dict[str, Any] = nx.node_link_data(g, edges="edges")
    return data
