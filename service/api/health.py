"""Liveness and readiness."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from service.deps import GraphDep

router = APIRouter(tags=["health"])


@router.get("/healthz")
async def healthz(graph: GraphDep) -> JSONResponse:
    """200 only when Neo4j answers a query; 503 `neo4j_unavailable` otherwise."""
    if await graph.ping():
        return JSONResponse({"status": "ok", "neo4j": "up"})
    return JSONResponse({"code": "neo4j_unavailable", "message": "Neo4j does not answer", "neo4j": "down"},
                        status_code=503)
