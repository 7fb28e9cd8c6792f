"""Request-body size limit: a body over the limit is refused with 413 `request_too_large` before any route
or validation sees it. A pure ASGI middleware: the JSON API buffers bodies anyway, so reading the body here
(and replaying it to the app) costs nothing extra, and works whether or not the client sent Content-Length.

The per-field limits (content length, batch length) are the API schemas' and answer 422 naming the field;
this is the outer bound (`COGNITION_MAX_BODY_BYTES`, default 8 MiB)."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024


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
