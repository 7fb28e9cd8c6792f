"""Liveness, readiness and metrics. Open (no key): load balancers and Prometheus call them. They reveal no
tenant data: metrics are labelled by route template, status and rule only."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Response
from fastapi.responses import JSONResponse

from graph import keys as keys_repo
from graph.errors import CognitionError
from graph.schema import TRIGGERS, migrations
from service.deps import GraphDep
from service.observability import render_metrics

router = APIRouter(tags=["health"])


@router.get("/healthz")
async def healthz(graph: GraphDep) -> JSONResponse:
    """200 only when Neo4j answers a query; 503 `neo4j_unavailable` otherwise."""
    if await graph.ping():
        return JSONResponse({"status": "ok", "neo4j": "up"})
    return JSONResponse({"code": "neo4j_unavailable", "message": "Neo4j does not answer", "neo4j": "down"},
                        status_code=503)


@router.get("/readyz")
async def readyz(graph: GraphDep) -> JSONResponse:
    """200 when Neo4j answers, every schema migration is applied and the scope-invariant trigger is live
    (one round trip); 503 `neo4j_unavailable` or `not_ready` (naming what is missing) otherwise."""
    try:
        state = await asyncio.wait_for(graph.read(keys_repo.readiness), 5.0)
    except CognitionError as exc:
        if exc.status == 503:
            return JSONResponse({"code": "neo4j_unavailable", "message": "Neo4j does not answer", "neo4j": "down"},
                                status_code=503)
        return JSONResponse({"code": "not_ready", "message": f"readiness query refused: {exc.code}",
                             "neo4j": "up"}, status_code=503)
    except TimeoutError:
        return JSONResponse({"code": "neo4j_unavailable", "message": "Neo4j did not answer within 5 s",
                             "neo4j": "down"}, status_code=503)
    expected = max((m.version for m in migrations()), default=0)
    version = int(state["version"] or 0)
    missing = sorted(set(TRIGGERS) - set(state["live"]))
    body = {"neo4j": "up", "schema_version": version, "expected_schema_version": expected,
            "triggers_live": sorted(set(TRIGGERS) & set(state["live"]))}
    problems = []
    if version < expected:
        problems.append(f"schema at version {version}, {expected} expected")
    if missing:
        problems.append(f"trigger(s) not live: {', '.join(missing)}")
    if problems:
        return JSONResponse({"code": "not_ready", "message": "; ".join(problems), **body}, status_code=503)
    return JSONResponse({"status": "ready", **body})


@router.get("/metrics", response_class=Response)
async def metrics() -> Response:
    """Prometheus exposition: request latency by route template and status, gate refusals by rule, digest
    and GC decisions by rule."""
    data, content_type = render_metrics()
    return Response(data, media_type=content_type)
