"""The FastAPI application: one async driver per process, made in the lifespan."""

from __future__ import annotations

import gc as cyclic_gc
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import Depends, FastAPI
from starlette.routing import Route

from graph.driver import Graph, Neo4jConfig
from graph.schema import apply_schema
from service import embedding, errors, observability, pipeline, warmup
from service.api import (
    artifacts,
    browser_guide,
    context,
    digest,
    docs,
    gc,
    graph_export,
    health,
    keys,
    portability,
    scopes,
)
from service.api.direct import DirectSave
from service.auth import Authenticator, ensure_first_key
from service.deps import authorize, document_access
from service.limits import BodySizeLimit
from service.mcp.http import PATH as MCP_PATH
from service.mcp.http import McpEndpoint
from service.settings import Settings


def neo4j_config(settings: Settings) -> Neo4jConfig:
    if not settings.neo4j_uri or not settings.neo4j_password:
        raise RuntimeError("NEO4J_URI and NEO4J_PASSWORD must be set (the `cognition serve` command sets them "
                           "for the managed local Neo4j)")
    return Neo4jConfig(settings.neo4j_uri, settings.neo4j_user, settings.neo4j_password, settings.neo4j_database)


# The routers an agent calls on every turn (saves, loads, search, context) come first. A request is served by the
# first route that fully matches it, and FastAPI's included routers cost ~1.5-7 µs a route to pass over: a save sat
# behind ten routers, ~0.1 ms of matching before any work (issue 18). No path fully matches two routes
# (tests/unit/test_route_order.py), so the order decides nothing else.
HOT_FIRST = (*artifacts.ROUTERS, context.router)


def settle_heap() -> None:
    """Once start-up has loaded what the process keeps for its life (the detector's weights, the tokeniser's
    dictionary, the compiled patterns, the app itself), move it out of the cyclic collector's reach: every
    oldest-generation collection otherwise walks those ~180,000 objects again, 50–60 ms a time in the middle of
    some request (issue 18). Reference counting still frees them; only cycles among them stay."""
    cyclic_gc.collect()
    cyclic_gc.freeze()


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    mcp = McpEndpoint(host=settings.host)  # streamable HTTP at /mcp (service/mcp/http.py)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        graph = Graph.connect(neo4j_config(settings))
        app.state.graph = graph
        app.state.settings = settings
        try:
            if settings.apply_schema_on_start:
                await apply_schema(graph)
            app.state.auth = Authenticator(graph, ttl=settings.key_cache_ttl)
            embedder = embedding.make_embedder(settings.embedder)  # one per process, like the driver
            previous_embedder = embedding.configure(embedder)
            previous_thresholds = pipeline.configure(settings.injection_refuse_at, settings.injection_hold_at)
            if embedder is not None:
                await embedding.ensure_vector_index(graph, embedder)
            bootstrap = settings.bootstrap_key.get_secret_value() if settings.bootstrap_key else None
            first = await ensure_first_key(graph, bootstrap)
            if first:  # shown once; only its hash is stored
                print(f"[cognition] first operator key (holds every namespace; shown once, store it now):\n"
                      f"    {first}", file=sys.stderr, flush=True)
            async with mcp.serving(graph, app.state.auth):
                settle_heap()
                try:
                    # In the background: readiness does not wait for Neo4j's plans (service/warmup.py).
                    async with warmup.in_background(graph, enabled=settings.warm_plans):
                        yield
                finally:
                    cyclic_gc.unfreeze()  # what an app made and dropped in one process (tests) froze: collectable again
            embedding.configure(previous_embedder)
            pipeline.configure(previous_thresholds.refuse_at, previous_thresholds.hold_at)
        finally:
            await graph.close()

    # `authorize` guards every /v1 route, including routes added later (service/deps.py).
    app = FastAPI(title="Cognition", version="0.1.0", lifespan=lifespan, dependencies=[Depends(authorize)],
                  description="A typed memory service for autonomous agents, backed by a real Neo4j graph.",
                  docs_url=None, redoc_url=None)  # served offline by docs.install below
    docs.install(app)
    errors.install(app)
    observability.configure_logging()
    # Innermost of the app's own middleware: the plain single save, served with the route's own functions
    # (service/api/direct.py); everything else goes on to the routes.
    app.add_middleware(DirectSave)
    # The import route streams its (large) body itself, under its own limit (service/api/portability.py).
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes, unbuffered=portability.UNBUFFERED)
    app.add_middleware(observability.RequestObserver)  # outermost: also logs and times the 413s
    document_access(app)
    for router in HOT_FIRST:
        app.include_router(router)
    for router in keys.ROUTERS:
        app.include_router(router)
    app.include_router(health.router)
    app.include_router(portability.router)  # before scopes: /v1/scopes/import is not a scope id
    app.include_router(scopes.router)
    app.include_router(digest.router)
    app.include_router(gc.router)
    app.include_router(graph_export.router)
    app.include_router(browser_guide.router)  # open: query text for Neo4j Browser, no data
    app.router.routes.append(Route(MCP_PATH, mcp, include_in_schema=False))  # ASGI: every method, own auth
    return app
