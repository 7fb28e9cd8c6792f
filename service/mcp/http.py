"""`/mcp`: the MCP server over streamable HTTP, mounted on the service's own app (same port, same middleware).

The API keys are the bearer tokens. Each HTTP request is verified here, before the SDK sees it, by the app's
own `Authenticator` (its key cache, so a revoke made through this process holds at once, one made elsewhere
within the TTL): no or a bad key → 401 `unauthenticated` with `WWW-Authenticate: Bearer`, the HTTP API's own
body. The verified principal rides on the request (`request.state`) to the tool, which checks scope and role.

Stateless: every POST is answered on its own (JSON, no server-held session), so any replica can answer any
request, like the rest of the API. The SDK's session manager still needs its task group: `serving()` runs it
for the app's lifetime, a fresh one per lifespan. The app mounts it through service/mcp/endpoint.py, which loads
this module (and the SDK) in the background after start-up.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.server.mcpserver import Context
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.authentication import AuthCredentials
from starlette.requests import Request
from starlette.types import Receive, Scope, Send

from graph.errors import CognitionError
from service.mcp.server import Binding, build_server
from service.usecases.access import Authenticator, Principal, Unauthenticated
from service.usecases.runtime import Runtime
from service.wire import bearer, headers_of, status_of

_STATE_KEY = "cognition_principal"


async def principal_of_request(ctx: Context, _: Authenticator) -> Principal:
    """The principal `McpEndpoint` verified for this HTTP request."""
    request = ctx.request_context.request
    principal = getattr(getattr(request, "state", None), _STATE_KEY, None)
    if not isinstance(principal, Principal):
        raise Unauthenticated("send an API key: `Authorization: Bearer <key>`")
    return principal


class McpServing:
    """The ASGI app behind `/mcp` (a plain Starlette route: the `/v1` guard does not apply, this does)."""

    def __init__(self, *, host: str) -> None:
        self.host = host  # a loopback host turns on the SDK's DNS-rebinding protection (Host / Origin checks)
        self.binding = Binding()
        self.server = build_server(self.binding, principal_of_request)
        self._manager: StreamableHTTPSessionManager | None = None

    @asynccontextmanager
    async def serving(self, rt: Runtime) -> AsyncIterator[None]:
        """Serve `/mcp` for the app's lifetime (call inside its lifespan)."""
        self.server.streamable_http_app(stateless_http=True, json_response=True, host=self.host)
        manager = self.server.session_manager  # made by the call above, fresh for this lifespan
        async with manager.run():
            self.binding.runtime, self._manager = rt, manager
            try:
                yield
            finally:
                self.binding.runtime = self._manager = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        manager, rt = self._manager, self.binding.runtime
        if manager is None or rt is None:
            await _answer(send, 503, {"code": "starting", "message": "the service is starting or stopping"})
            return
        try:
            principal = await rt.auth.authenticate(bearer(Request(scope).headers.get("authorization")))
        except CognitionError as exc:  # 401 unauthenticated, or 503 when Neo4j is down
            await _answer(send, status_of(exc), {"code": exc.code, "message": exc.message}, headers_of(exc))
            return
        # On this request's own state (a per-request copy): the request log reads key_id from it too.
        state = scope.setdefault("state", {})
        state[_STATE_KEY], state["key_id"] = principal, principal.key_id
        # The SDK's own notion of the caller: binds any SDK session to the key that opened it.
        token = AccessToken(token=principal.key_id, client_id=principal.key_id, scopes=[principal.role])
        scope["user"], scope["auth"] = AuthenticatedUser(token), AuthCredentials([principal.role])
        await manager.handle_request(scope, receive, send)


async def _answer(send: Send, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
    raw = json.dumps(body).encode()
    head = [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode())]
    head += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": head})
    await send({"type": "http.response.body", "body": raw})
