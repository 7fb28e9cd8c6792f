"""Graph export use case (HTTP API and `cognition export graph` alike): one scope's view as a networkx graph,
serialised as GraphML or node-link JSON. The queries and the graph building are in graph/export.py."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from graph import export as repo
from graph.errors import Invalid, NotFound
from service.usecases.runtime import Runtime

VIEWS = repo.VIEWS
FORMATS = repo.FORMATS
MAX_NODES = repo.MAX_NODES
HARD_MAX_NODES = repo.HARD_MAX_NODES


async def export_graph(rt: Runtime, scope_id: str, view: str, *, max_nodes: int = MAX_NODES,
                       content: bool = False) -> Any:
    """The view as a `networkx.MultiDiGraph`: one read transaction, one round trip. 404 `scope_not_found`;
    422 `export_too_large` (naming the count) when the view has more than `max_nodes` nodes — refused rather
    than cut, since a silently truncated lineage would mislead."""
    if view not in VIEWS:
        raise Invalid(f"view must be one of {', '.join(VIEWS)}", code="unknown_view", details={"field": "view"})
    if not 1 <= max_nodes <= HARD_MAX_NODES:
        raise Invalid(f"max_nodes must be 1..{HARD_MAX_NODES}", code="invalid_limit", details={"field": "max_nodes"})
    out = await rt.graph.read(repo.fetch, view=view, scope_id=scope_id, max_nodes=max_nodes, content=content)
    if not out.found:
        raise NotFound(f"no scope {scope_id}", code="scope_not_found")
    if out.node_count > max_nodes:
        raise Invalid(f"the {view} view of this scope has {out.node_count} nodes, more than max_nodes={max_nodes}",
                      code="export_too_large",
                      details={"field": "max_nodes", "node_count": out.node_count, "max_nodes": max_nodes})
    return repo.build(out)


def serialise(g: Any, fmt: str) -> Iterator[str]:
    """The graph as text chunks in `fmt` (graphml: line by line; node-link: one JSON document)."""
    if fmt == "graphml":
        for line in repo.graphml_lines(g):
            yield line + "\n"
    elif fmt == "node-link":
        yield json.dumps(repo.node_link(g), ensure_ascii=False)
    else:
        raise Invalid(f"format must be one of {', '.join(FORMATS)}", code="unknown_format",
                      details={"field": "format"})
