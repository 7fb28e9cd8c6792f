"""Every route is reached by its own paths. Starlette serves a request with the first route that fully matches its
path and method, and `service.http.app` includes the routers hottest first (saves, search, context) after the three
probes, so a request matches past as few routes as it can (issue 18); the order may never let one route shadow
another."""

from __future__ import annotations

import re
from typing import Any

from fastapi.routing import APIRoute
from starlette.routing import BaseRoute, Match

from service.http.app import HOT_FIRST, create_app
from service.http.routes import health
from service.settings import Settings

# Concrete values for path parameters; literal segments that a parameter could also match (`/v1/scopes/import`)
# are exactly what the check is for.
SAMPLE = {"scope_id": "sc-1", "item_id": "it-1", "pass_id": "ps-1", "key_id": "ky-1", "view": "support",
          "namespace": "ns-1"}


def _app() -> Any:
    return create_app(Settings(neo4j_uri="bolt://127.0.0.1:1", neo4j_password="unused"))


def _flat(routes: list[BaseRoute]) -> list[BaseRoute]:
    out: list[BaseRoute] = []
    for route in routes:
        inner = getattr(route, "original_router", None)  # FastAPI's included router
        out.extend(_flat(list(inner.routes)) if inner is not None else [route])
    return out


def _sample_path(route: APIRoute) -> str:
    return re.sub(r"\{(\w+)(?::\w+)?\}", lambda m: SAMPLE.get(m.group(1), f"{m.group(1)}-1"), route.path_format)


def _first_full(routes: list[BaseRoute], method: str, path: str) -> BaseRoute | None:
    scope = {"type": "http", "method": method, "path": path, "root_path": "", "query_string": b"", "headers": []}
    for route in routes:
        if route.matches(scope)[0] is Match.FULL:
            return route
    return None


def test_every_api_route_is_reached_by_its_own_path() -> None:
    routes = _flat(list(_app().router.routes))
    api = [r for r in routes if isinstance(r, APIRoute)]
    assert len(api) > 50
    shadowed = []
    for route in api:
        for method in sorted(route.methods):
            got = _first_full(routes, method, _sample_path(route))
            if got is not route:
                shadowed.append(f"{method} {route.path_format} -> {getattr(got, 'path', got)}")
    assert not shadowed, shadowed


def test_a_save_passes_over_no_other_router_than_the_probes() -> None:
    top = [r.original_router for r in _app().router.routes if getattr(r, "original_router", None) is not None]
    # The probes first (their routes are built on the first /readyz without building every hot route), then the
    # hot routers.
    assert top[0] is health.router
    assert {r.path for r in health.router.routes} == {"/healthz", "/readyz", "/metrics"}
    first_router = top[1]
    assert first_router is HOT_FIRST[0]
    paths = {(m, r.path_format) for r in first_router.routes for m in getattr(r, "methods", ())}
    assert ("POST", "/v1/scopes/{scope_id}/memories") in paths
    assert ("POST", "/v1/scopes/{scope_id}/context") in {
        (m, r.path_format) for router in HOT_FIRST for r in router.routes for m in getattr(r, "methods", ())}


def test_the_check_sees_a_shadowed_route() -> None:
    """The check itself: a catch-all placed first shadows everything after it."""
    app = _app()
    catch_all = APIRoute("/v1/scopes/{scope_id}/{rest}", lambda: None, methods=["POST"])
    routes = [catch_all, *_flat(list(app.router.routes))]
    save = next(r for r in routes if isinstance(r, APIRoute) and r.path_format == "/v1/scopes/{scope_id}/memories"
                and "POST" in r.methods)
    assert _first_full(routes, "POST", _sample_path(save)) is catch_all
