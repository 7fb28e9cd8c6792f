"""Request dependencies: the process's one Graph, the acting principal, the clock.

Access control is central: `authorize` is an app-wide dependency (service/app.py), so every route under
`/v1` — including routes added later — is authenticated and tenant-checked before its own code runs:
- no, unknown or revoked key → 401 `unauthenticated`;
- a `{scope_id}` (or `{pass_id}`) whose namespace the key does not hold, or that does not exist → 404
  `scope_not_found` (`pass_not_found`);
- a `namespace` named in the path, the query or a JSON body that the key does not hold → 404
  `namespace_not_found` (covers `POST /v1/scopes` and the partition routes: digest passes, GC runs);
- then the role: a role that may not do this operation (service/auth.py `roles_for`) → 403 `forbidden_role`.
Routes that find their namespace only after loading something the guard does not know (graph/keys.py
`NAMESPACE_OF` lists what it knows) call `require_namespace(principal, ns)` themselves;
`require_role(principal, *roles)` is there for them too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute

from graph.driver import Graph
from graph.errors import Invalid, NotFound
from graph.keys import NAMESPACE_OF
from service.auth import (
    ALL_ROLES,
    Authenticator,
    Principal,
    require_namespace,
    require_role,
    roles_for,
)
from service.errors import ErrorBody

__all__ = ["ActorDep", "GraphDep", "PrincipalDep", "authorize", "bearer", "check_access", "document_access",
           "get_principal", "require_namespace", "require_role", "require_visible", "utcnow"]

_ID = re.compile(r"^[A-Za-z0-9-]{1,64}$")


# Dependencies are `async def` even when they do not await: FastAPI runs a plain `def` dependency in a worker
# thread, and that hop (twice a request) cost more than a whole save's gates (issue 18).
async def get_graph(request: Request) -> Graph:
    graph: Graph = request.app.state.graph
    return graph


def get_authenticator(request: Request) -> Authenticator:
    auth: Authenticator = request.app.state.auth
    return auth


def bearer_token(request: Request) -> str | None:
    return bearer(request.headers.get("authorization"))


def bearer(value: str | None) -> str | None:
    """The key in an `Authorization: Bearer <key>` header value, else None."""
    if not value:
        return None
    scheme, _, credentials = value.strip().partition(" ")
    if scheme.lower() != "bearer":
        return None
    return credentials.strip() or None


async def get_principal(request: Request) -> Principal:
    """The verified caller (`Authorization: Bearer <key>`); 401 `unauthenticated` otherwise."""
    principal: Principal | None = getattr(request.state, "principal", None)
    if principal is None:
        principal = await get_authenticator(request).authenticate(bearer_token(request))
        request.state.principal = principal
        request.state.key_id = principal.key_id  # for the request log; never the key itself
    return principal


async def _json_body(request: Request) -> Any:
    if request.method not in ("POST", "PUT", "PATCH"):
        return None
    if request.headers.get("content-type", "").split(";")[0].strip() == "application/x-ndjson":
        return None  # a streamed file (scope import), never read as JSON by FastAPI either
    try:
        return await request.json()  # parsed once: FastAPI has already read it for the route (cached)
    except ValueError:
        return None  # the route's own validation answers malformed JSON


async def require_visible(auth: Authenticator, principal: Principal, param: str, value: str) -> None:
    """The tenant check of one scope or pass id (`param` is `scope_id` or `pass_id`): 404 `scope_not_found`
    (`pass_not_found`) when it does not exist or lives in a namespace the key does not hold. Shared by every
    surface (the HTTP guard below, the MCP tools)."""
    what = param.removesuffix("_id")
    if not _ID.match(value):
        raise Invalid(f"{param}: not a {what} id", details={"field": param})
    namespace = await auth.namespace_of(param, value)
    if namespace is None or not principal.holds(namespace):
        raise NotFound(f"no {what} {value}", code=f"{what}_not_found")


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
    await check_access(get_authenticator(request), principal, method=request.method, template=path,
                       path_params=request.path_params, named=named)


async def check_access(auth: Authenticator, principal: Principal, *, method: str, template: str,
                       path_params: Mapping[str, Any], named: Iterable[Any]) -> None:
    """The guard's checks once the caller is known: each scope or pass id in the path is visible to the key, each
    namespace named (path, query, body) is one it holds, and its role may do `method` on the route `template`.
    `authorize` runs them for every `/v1` route; the direct save (service/api/direct.py) runs the same."""
    for param in NAMESPACE_OF:  # scope_id, pass_id: things that live in one namespace
        value = path_params.get(param)
        if value is not None:
            await require_visible(auth, principal, param, value)
    for ns in named:
        if isinstance(ns, str):
            require_namespace(principal, ns)
    require_role(principal, *sorted(roles_for(method, template)))


async def get_actor(principal: Annotated[Principal, Depends(get_principal)]) -> str:
    # The audit trail's actor is the key id: attributable, and never the secret.
    return principal.key_id


def utcnow() -> datetime:
    return datetime.now(UTC)


GraphDep = Annotated[Graph, Depends(get_graph)]
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
        error = {"description": "refused; see `code`",
                 "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}}
        for path, item in schema.get("paths", {}).items():
            if not path.startswith("/v1/"):
                continue
            for method, op in item.items():
                op["security"] = [{"bearer": []}]
                names = {p.get("name") for p in op.get("parameters", [])}
                statuses = {"401", "503"}
                if names & {"scope_id", "pass_id", "namespace"} or "requestBody" in op:
                    statuses.add("404")
                if roles_for(method.upper(), path) != ALL_ROLES:
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
