"""Request dependencies: the process's runtime, the acting principal.

Access control is central: `authorize` is an app-wide dependency (service/http/app.py), so every route under
`/v1` — including routes added later — is authenticated and tenant-checked before its own code runs:
- no, unknown or revoked key → 401 `unauthenticated`;
- a `{scope_id}` (or `{pass_id}`) whose namespace the key does not hold, or that does not exist → 404
  `scope_not_found` (`pass_not_found`);
- a `namespace` named in the path, the query or a JSON body that the key does not hold → 404
  `namespace_not_found` (covers `POST /v1/scopes` and the partition routes: digest passes, GC runs);
- then the role: a role that may not do the route's operation (`operation_of` below, the rules in
  service/usecases/access.py) → 403 `forbidden_role`.
Routes that find their namespace only after loading something the guard does not know (graph/keys.py
`NAMESPACE_OF` lists what it knows) call `require_namespace(principal, ns)` themselves.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute

from cognition.schemas.errors import ErrorBody
from graph.keys import NAMESPACE_OF
from service.http.errors import error_response
from service.usecases.access import (
    Authenticator,
    Operation,
    Principal,
    require,
    require_namespace,
    require_visible,
)
from service.usecases.runtime import Runtime
from service.wire import bearer

__all__ = ["ActorDep", "PrincipalDep", "RuntimeDep", "authorize", "check_access", "document_access",
           "get_principal", "operation_of"]


# Dependencies are `async def` even when they do not await: FastAPI runs a plain `def` dependency in a worker
# thread, and that hop (twice a request) cost more than a whole save's gates.
async def get_runtime(request: Request) -> Runtime:
    rt: Runtime = request.app.state.runtime
    return rt


def get_authenticator(request: Request) -> Authenticator:
    auth: Authenticator = request.app.state.runtime.auth
    return auth


def bearer_token(request: Request) -> str | None:
    return bearer(request.headers.get("authorization"))


async def get_principal(request: Request) -> Principal:
    """The verified caller (`Authorization: Bearer <key>`); 401 `unauthenticated` otherwise."""
    principal: Principal | None = getattr(request.state, "principal", None)
    if principal is None:
        principal = await get_authenticator(request).authenticate(bearer_token(request))
        request.state.principal = principal
        request.state.key_id = principal.key_id  # for the request log; never the key itself
    return principal


# ---- which operation a route is ---------------------------------------------------------------------------

_WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# First match wins, on (method, route path template). Anything not listed: GET/HEAD/OPTIONS read, other methods
# write. Routes added later are covered by the default.
_RULES: tuple[tuple[frozenset[str], re.Pattern[str], Operation], ...] = (
    (_WRITE_METHODS | {"GET", "HEAD"}, re.compile(r"^/v1/keys(/|$)"), Operation.manage_keys),
    (_WRITE_METHODS | {"GET", "HEAD"}, re.compile(r"^/v1/webhooks(/|$)"), Operation.manage_webhooks),
    (frozenset({"POST"}), re.compile(r"/(approve|reject)$"), Operation.approve),
    (frozenset({"POST"}), re.compile(r"^/v1/scopes/import$"), Operation.import_scope),
    (_WRITE_METHODS, re.compile(r"/write-policy$"), Operation.set_policy),
    (_WRITE_METHODS, re.compile(r"/(digest|gc)(/|$)"), Operation.run_passes),
    (frozenset({"POST"}), re.compile(r"/(search|context|why)$"), Operation.read),  # reads sent as POST
)


def operation_of(method: str, path_template: str) -> Operation:
    for methods, pattern, operation in _RULES:
        if method in methods and pattern.search(path_template):
            return operation
    return Operation.write if method in _WRITE_METHODS else Operation.read


async def _json_body(request: Request) -> Any:
    if request.method not in ("POST", "PUT", "PATCH"):
        return None
    if request.headers.get("content-type", "").split(";")[0].strip() == "application/x-ndjson":
        return None  # a streamed file (scope import), never read as JSON by FastAPI either
    try:
        return await request.json()  # parsed once: FastAPI has already read it for the route (cached)
    except ValueError:
        return None  # the route's own validation answers malformed JSON


async def authorize(request: Request) -> None:
    """The app-wide guard (see the module docstring). Routes outside `/v1` (health, metrics) are open."""
    route = request.scope.get("route")
    path = route.path if isinstance(route, APIRoute) else request.url.path
    if not path.startswith("/v1/"):
        return
    principal = await get_principal(request)
    named = [request.path_params.get("namespace"), request.query_params.get("namespace")]
    body = await _json_body(request)
    if isinstance(body, dict):
        named.append(body.get("namespace"))
    namespace = await check_access(get_authenticator(request), principal, method=request.method, template=path,
                                   path_params=request.path_params, named=named)
    rt: Runtime = request.app.state.runtime
    rt.limiter.take(principal.key_id, namespace, operation_of(request.method, path))  # 429 rate_limited


async def check_access(auth: Authenticator, principal: Principal, *, method: str, template: str,
                       path_params: Mapping[str, Any], named: Iterable[Any]) -> str | None:
    """The guard's checks once the caller is known: each scope or pass id in the path is visible to the key, each
    namespace named (path, query, body) is one it holds, and its role may do `method` on the route `template`.
    `authorize` runs them for every `/v1` route; the direct save (service/http/direct.py) runs the same. Answers the
    namespace the request acts in (its scope's or pass's, else the first it names; None for key-wide routes): the
    one whose rate limit it counts against."""
    acting: str | None = None
    for param in NAMESPACE_OF:  # scope_id, pass_id: things that live in one namespace
        value = path_params.get(param)
        if value is not None:
            acting = acting or await require_visible(auth, principal, param, value)
    for ns in named:
        if isinstance(ns, str):
            require_namespace(principal, ns)
            acting = acting or ns
    require(principal, operation_of(method, template))
    return acting


async def get_actor(principal: Annotated[Principal, Depends(get_principal)]) -> str:
    # The audit trail's actor is the key id: attributable, and never the secret.
    return principal.key_id


RuntimeDep = Annotated[Runtime, Depends(get_runtime)]
PrincipalDep = Annotated[Principal, Depends(get_principal)]
ActorDep = Annotated[str, Depends(get_actor)]


def document_access(app: FastAPI) -> None:
    """Put what `authorize` does into the OpenAPI document: the bearer scheme on every `/v1` operation and
    the refusals it can answer (401 always; 404 where a scope or namespace is named; 403 where a role can be
    refused; 413 where there is a body; 503 when Neo4j is down)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
        components = schema.setdefault("components", {})
        components.setdefault("securitySchemes", {})["bearer"] = {
            "type": "http", "scheme": "bearer", "description": "an API key (`cognition keys create`, POST /v1/keys)"}
        components.setdefault("schemas", {})["ErrorBody"] = ErrorBody.model_json_schema()
        error = error_response()
        for path, item in schema.get("paths", {}).items():
            if not path.startswith("/v1/"):
                continue
            for method, op in item.items():
                op["security"] = [{"bearer": []}]
                names = {p.get("name") for p in op.get("parameters", [])}
                statuses = {"401", "503"}
                if names & {"scope_id", "pass_id", "namespace"} or "requestBody" in op:
                    statuses.add("404")
                if operation_of(method.upper(), path) is not Operation.read:
                    statuses.add("403")
                if "requestBody" in op:
                    statuses |= {"413", "422"}
                if names:
                    statuses.add("422")
                for status in statuses:
                    op.setdefault("responses", {}).setdefault(status, error)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
