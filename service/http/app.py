"""The FastAPI application: one async driver per process, made in the lifespan."""

from __future__ import annotations

import asyncio
import gc as cyclic_gc
import logging
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

from fastapi import Depends, FastAPI
from starlette.routing import Route

from graph.driver import Graph
from graph.schema import Guard, apply_schema
from service import LOADED_AT
from service.http import docs, errors, observe
from service.http.causal import Causal
from service.http.deliveries import DeliveryConfig
from service.http.deliveries import worker as delivery_worker
from service.http.deps import authorize, document_access
from service.http.direct import DirectSave
from service.http.limits import BodySizeLimit, RateGate
from service.http.routes import (
    artifacts,
    browser_guide,
    context,
    digest,
    events,
    gc,
    graph_export,
    health,
    keyed,
    keys,
    portability,
    scopes,
    webhooks,
)
from service.mcp.endpoint import PATH as MCP_PATH
from service.mcp.endpoint import McpEndpoint
from service.settings import Settings
from service.usecases import events as feed
from service.usecases import limits, warmup
from service.usecases.keys import ensure_first_key
from service.usecases.runtime import Runtime, neo4j_config

# The routers an agent calls on every turn (saves, loads, search, context) come first, after the three probes. A
# request is served by the first route that fully matches it, and FastAPI's included routers cost ~1.5-7 µs a route
# to pass over: a save sat behind ten routers, ~0.1 ms of matching before any work. The probes go before them
# (~8 µs a request to pass over) because FastAPI builds an included router's routes lazily, on the first request
# that walks past them: a replica's first /readyz behind every router waited ~0.3 s for that. No path fully matches
# two routes (tests/unit/test_route_order.py), so the order decides nothing else.
HOT_FIRST = (*artifacts.ROUTERS, context.router)
# ... and this long after start-up (past a replica's first /readyz), a worker thread has every router built, so that
# no agent's first call after a restart waits for it (as the MCP SDK loads: service/mcp/endpoint.py PRELOAD_AFTER).
ROUTES_BUILT_AFTER = 3.0
_log = logging.getLogger("cognition.startup")


GUARD_LINE: dict[Guard, str] = {
    "trigger": "trigger (the APOC trigger refuses any write that breaks a scope invariant, raw Cypher too)",
    "queries": "queries (the service's write queries and the constraints; raw Cypher is not checked: "
               "`cognition audit` finds what it breaks)"}


class Laps:
    """Start-up, phase by phase, for the log line that says how long it took: `imports` from the service's first
    module (service/__init__.py) to the lifespan, then each phase the lifespan names."""

    def __init__(self) -> None:
        self.last = time.perf_counter()
        self.laps = [("imports", self.last - LOADED_AT)]

    def __call__(self, name: str) -> None:
        now = time.perf_counter()
        self.laps.append((name, now - self.last))
        self.last = now

    def total(self) -> float:
        return sum(s for _, s in self.laps)

    def __str__(self) -> str:
        return ", ".join(f"{name} {1000 * s:.0f} ms" for name, s in self.laps)


def settle_heap() -> None:
    """Once start-up has loaded what the process keeps for its life (the detector's weights, the compiled patterns,
    the app itself), move it out of the cyclic collector's reach: every
    oldest-generation collection otherwise walks those ~180,000 objects again, 50–60 ms a time in the middle of
    some request. Reference counting still frees them; only cycles among them stay."""
    cyclic_gc.collect()
    cyclic_gc.freeze()


def build_routes(app: FastAPI) -> None:
    """Have FastAPI build every included router's routes now (it builds a router's on the first request that walks
    past it, ~0.1 s for them all): a path that no route serves, matched against each of the app's routes, walks past
    every one. Safe beside requests: FastAPI builds each router under a lock of its own."""
    scope = {"type": "http", "method": "GET", "path": "/\x00", "root_path": "", "query_string": b"", "headers": []}
    for route in app.router.routes:
        route.matches(dict(scope))


@asynccontextmanager
async def routes_built_later(app: FastAPI, after: float = ROUTES_BUILT_AFTER) -> AsyncIterator[asyncio.Task[None]]:
    """`build_routes` in a worker thread `after` seconds into the body (the app serving), as the task it yields; a
    failure is logged and changes nothing else (a request builds what it walks past, as before)."""

    async def run() -> None:
        await asyncio.sleep(after)
        try:
            await asyncio.to_thread(build_routes, app)
        except Exception as exc:  # noqa: BLE001 - a warm-up never stops the service
            _log.warning("building the routes ahead of their first request failed (%s)", type(exc).__name__)

    task = asyncio.create_task(run(), name="build-routes")
    try:
        yield task
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    mcp = McpEndpoint(host=settings.host)  # streamable HTTP at /mcp (service/mcp/endpoint.py)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        laps = Laps()
        graph = Graph.connect(neo4j_config(settings))
        app.state.settings = settings
        try:
            guard = (await apply_schema(graph, guard=settings.scope_guard)).guard \
                if settings.apply_schema_on_start else None
            laps("schema")
            rt = await Runtime.start(graph, settings, guard=guard)  # one per process, like the driver
            laps("runtime")
            app.state.runtime = rt
            print(f"[cognition] scope guard: {GUARD_LINE[rt.scope_guard]}", file=sys.stderr, flush=True)
            bootstrap = settings.bootstrap_key.get_secret_value() if settings.bootstrap_key else None
            first = await ensure_first_key(rt, bootstrap)
            if first:  # shown once; only its hash is stored
                print(f"[cognition] first operator key (holds every namespace; shown once, store it now):\n"
                      f"    {first}", file=sys.stderr, flush=True)
            laps("keys")
            async with mcp.serving(rt), limits.heartbeat(graph, rt.limiter, every_s=settings.rate_heartbeat_s), \
                    feed.sequencer(graph, every_s=settings.events_sequence_s), \
                    delivery_worker(rt, DeliveryConfig.of(settings)):
                settle_heap()
                laps("heap")
                print(f"[cognition] started in {laps.total():.2f} s: {laps}", file=sys.stderr, flush=True)
                try:
                    # In the background: readiness does not wait for Neo4j's plans (service/usecases/warmup.py).
                    async with warmup.in_background(rt, enabled=settings.warm_plans), routes_built_later(app):
                        yield
                finally:
                    cyclic_gc.unfreeze()  # what an app made and dropped in one process (tests) froze: collectable again
        finally:
            await graph.close()

    # `authorize` guards every /v1 route, including routes added later (service/http/deps.py).
    app = FastAPI(title="Cognition", version="0.1.0", lifespan=lifespan, dependencies=[Depends(authorize)],
                  description="A typed memory service for autonomous agents, backed by a real Neo4j graph.",
                  docs_url=None, redoc_url=None)  # served offline by docs.install below
    docs.install(app)
    errors.install(app)
    observe.configure_logging()
    # Innermost of the app's own middleware: the plain single save, served with the route's own functions
    # (service/http/direct.py); everything else goes on to the routes.
    app.add_middleware(DirectSave)
    # The import route streams its (large) body itself, under its own limit (service/http/routes/portability.py).
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes, unbuffered=portability.UNBUFFERED)
    app.add_middleware(Causal)  # Cognition-Bookmark in and out (service/http/causal.py)
    app.add_middleware(RateGate)  # a key over its limit: 429 before anything else (service/http/limits.py)
    app.add_middleware(observe.RequestObserver)  # outermost: also logs and times the 413s and 429s
    document_access(app)
    app.include_router(health.router)  # the probes first: see HOT_FIRST
    for router in HOT_FIRST:
        app.include_router(router)
    app.include_router(keyed.router)
    for router in keys.ROUTERS:
        app.include_router(router)
    app.include_router(portability.router)  # before scopes: /v1/scopes/import is not a scope id
    app.include_router(scopes.router)
    app.include_router(digest.router)
    app.include_router(gc.router)
    app.include_router(graph_export.router)
    app.include_router(events.router)
    app.include_router(webhooks.router)
    app.include_router(browser_guide.router)  # open: query text for Neo4j Browser, no data
    app.router.routes.append(Route(MCP_PATH, mcp, include_in_schema=False))  # ASGI: every method, own auth
    return app
