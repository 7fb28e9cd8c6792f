"""Liveness, readiness and metrics. Open (no key): load balancers and Prometheus call them. They reveal no
tenant data: metrics are labelled by route template, status and rule only."""

from __future__ import annotations

from fastapi import APIRouter, Response
from fastapi.responses import JSONResponse

from graph.errors import CognitionError, Unavailable
from service.http.deps import RuntimeDep
from service.metrics import render_metrics
from service.usecases import health

router = APIRouter(tags=["health"])


@router.get("/healthz")
async def healthz(rt: RuntimeDep) -> JSONResponse:
    """200 only when Neo4j answers a query; 503 `neo4j_unavailable` otherwise. `scope_guard` says who enforces
    the scope invariants: `trigger` (the APOC trigger, raw Cypher too) or `queries` (the service's writes and the
    constraints)."""
    if await health.alive(rt):
        return JSONResponse({"status": "ok", "neo4j": "up", "scope_guard": rt.scope_guard})
    return JSONResponse({"code": "neo4j_unavailable", "message": "Neo4j does not answer", "neo4j": "down",
                         "scope_guard": rt.scope_guard}, status_code=503)


@router.get("/readyz")
async def readyz(rt: RuntimeDep) -> JSONResponse:
    """200 when Neo4j answers, every schema migration is applied and (under the `trigger` scope guard) the
    scope-invariant trigger is live (one round trip); 503 `neo4j_unavailable` or `not_ready` (naming what is
    missing) otherwise."""
    try:
        state = await health.readiness(rt)
    except Unavailable:
        return JSONResponse({"code": "neo4j_unavailable", "message": "Neo4j does not answer", "neo4j": "down"},
                            status_code=503)
    except TimeoutError:
        return JSONResponse({"code": "neo4j_unavailable", "message": "Neo4j did not answer within 5 s",
                             "neo4j": "down"}, status_code=503)
    except CognitionError as exc:
        return JSONResponse({"code": "not_ready", "message": f"readiness query refused: {exc.code}",
                             "neo4j": "up"}, status_code=503)
    body = {"neo4j": "up", "schema_version": state.schema_version,
            "expected_schema_version": state.expected_schema_version, "triggers_live": state.triggers_live,
            "scope_guard": state.scope_guard}
    if state.problems:
        return JSONResponse({"code": "not_ready", "message": "; ".join(state.problems), **body}, status_code=503)
    return JSONResponse({"status": "ready", **body})


@router.get("/metrics", response_class=Response)
async def metrics() -> Response:
    """Prometheus exposition: request latency by route template and status, gate refusals by rule, digest
    and GC decisions by rule."""
    data, content_type = render_metrics()
    return Response(data, media_type=content_type)
