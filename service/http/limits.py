"""The request limits at the front of the HTTP stack.

`RateGate`: a `/v1` request of a key this process holds verified (its key cache), whose key bucket of the request's
class is empty (service/usecases/limits.py), is answered 429 `rate_limited` at once — before its body is read, the
route matched by the router or any access check: what `authorize` would answer it after all of them, as the bucket
gives no token to any request of that key and class. So a key hammering the service far over its limit costs each
refused request a hash and a dictionary look-up, and the other keys' requests keep the process. Requests of a key
not yet in the cache, and the namespace buckets, are left to `authorize`, which spends the tokens.

`BodySizeLimit`: a body over the limit is refused with 413 `request_too_large` before any route
or validation sees it. A pure ASGI middleware: the JSON API buffers bodies anyway, so reading the body here
(and replaying it to the app) costs nothing extra, and works whether or not the client sent Content-Length.

The per-field limits (content length, batch length) are the API schemas' and answer 422 naming the field;
this is the outer bound (`COGNITION_MAX_BODY_BYTES`, default 8 MiB)."""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.http.deps import operation_of
from service.http.errors import domain_response
from service.usecases.limits import RateLimited
from service.wire import bearer

DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024


class RateGate:
    """ASGI middleware just inside the request observer (which logs and times its 429s)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/v1/"):
            app = scope.get("app")
            rt = getattr(getattr(app, "state", None), "runtime", None)
            if rt is not None and rt.limiter.on:
                header = next((v for k, v in scope["headers"] if k == b"authorization"), None)
                principal = rt.auth.cached(bearer(header.decode("latin-1")) if header is not None else None)
                if principal is not None:
                    try:
                        rt.limiter.check_key(principal.key_id, operation_of(scope["method"], scope["path"]))
                    except RateLimited as exc:
                        scope.setdefault("state", {})["key_id"] = principal.key_id  # for the request log
                        _name_route(app, scope)
                        await domain_response(exc)(scope, receive, send)
                        return
        await self.app(scope, receive, send)


class _Named:
    """What the request observer reads of a matched route: its template."""

    __slots__ = ("path",)

    def __init__(self, path: str) -> None:
        self.path = path


def _templates(app: Any) -> list[tuple[re.Pattern[str], _Named]]:
    """The app's `/v1` path templates as patterns, the ones with fewer parameters first (a literal segment wins
    over a parameter, as the router's declaration order has it), built once from the OpenAPI document."""
    known = getattr(app.state, "rate_gate_templates", None)
    if known is None:
        paths = sorted((p for p in app.openapi()["paths"] if p.startswith("/v1/")), key=lambda p: p.count("{"))
        known = [(re.compile("^" + re.sub(r"\\{[^}]+\\}", "[^/]+", re.escape(p)) + "$"), _Named(p)) for p in paths]
        app.state.rate_gate_templates = known
    return known


def _name_route(app: Any, scope: Scope) -> None:
    """Name the route template for the request log (never the concrete path, which carries ids)."""
    for pattern, named in _templates(app):
        if pattern.match(scope["path"]):
            scope["route"] = named
            return


class BodySizeLimit:
    def __init__(self, app: ASGIApp, max_bytes: int = DEFAULT_MAX_BODY_BYTES,
                 unbuffered: frozenset[tuple[str, str]] = frozenset()) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.unbuffered = unbuffered  # (method, path) of routes that stream their body under their own limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or (scope.get("method"), scope.get("path")) in self.unbuffered:
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            await self._refuse(send)
            return
        chunks: list[bytes] = []
        total = 0
        first: Message | None = None
        while True:
            message = await receive()
            if message["type"] != "http.request":  # a disconnect: hand it on as it is
                first = message
                break
            body = message.get("body", b"")
            total += len(body)
            if total > self.max_bytes:
                await self._refuse(send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        replay: list[Message] = [first] if first is not None else [
            {"type": "http.request", "body": b"".join(chunks), "more_body": False}]

        async def replay_receive() -> Message:
            return replay.pop() if replay else await receive()

        await self.app(scope, replay_receive, send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps({"code": "request_too_large",
                           "message": f"the request body is larger than {self.max_bytes} bytes"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()), (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None
