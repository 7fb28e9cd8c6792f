"""`GET /v1/scopes/{scope_id}/graph`: a scope's lineage, refgraph or decisions for networkx (GraphML or
node-link JSON). The scope is checked by the central guard (service/http/deps.py) like every scope route."""

# No `from __future__ import annotations`: FastAPI reads these annotations at run time.
from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query
from fastapi.responses import StreamingResponse

from service.http.deps import RuntimeDep
from service.http.errors import error_responses
from service.usecases import graph_export as use

ScopeId = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9-]+$")]

router = APIRouter(prefix="/v1/scopes/{scope_id}", tags=["export"])
MEDIA_TYPES = {"graphml": "application/graphml+xml", "node-link": "application/json"}
SUFFIXES = {"graphml": "graphml", "node-link": "json"}


@router.get("/graph", response_class=StreamingResponse, responses={
    200: {"description": "the graph", "content": {"application/graphml+xml": {}, "application/json": {}}},
    **error_responses(404, 422, 503)})
async def export_graph(
        scope_id: ScopeId, rt: RuntimeDep,
        view: Annotated[Literal["lineage", "refgraph", "decisions"], Query(
            description="lineage: artifacts, revisions (PREVIOUS), DERIVED_FROM, DEPENDS_ON; refgraph: artifacts "
                        "and tombstones with SUPPORTS / DEPENDS_ON / DERIVED_FROM / SUPERSEDES / RELATES_TO; "
                        "decisions: digest passes, decisions, ABOUT, CITES")] = "refgraph",
        format: Annotated[Literal["graphml", "node-link"], Query(
            description="graphml (nx.read_graphml) or node-link JSON (nx.node_link_graph(data, edges='edges'))")
        ] = "graphml",
        max_nodes: Annotated[int, Query(ge=1, le=use.HARD_MAX_NODES,
                                        description="refuse (422 export_too_large) above this many nodes")
                             ] = use.MAX_NODES,
        content: Annotated[bool, Query(description="include the text fields (content, when_to_use, steps)")
                           ] = False) -> StreamingResponse:
    """One scope's graph for analysts, as a networkx multigraph: node ids are artifact ids (a revision's is
    `<artifact id>@<revision>`), attributes are the stored properties (lists and maps as JSON strings in
    GraphML, temporal values ISO 8601), plus `label`; edges carry `type`. Only this scope's nodes."""
    g = await use.export_graph(rt, scope_id, view, max_nodes=max_nodes, content=content)
    filename = f"{scope_id}-{view}.{SUFFIXES[format]}"
    return StreamingResponse(use.serialise(g, format), media_type=MEDIA_TYPES[format],
                             headers={"Content-Disposition": f'attachment; filename="{filename}"'})
