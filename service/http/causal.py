"""`Cognition-Bookmark`: read-your-writes across replicas and cluster members. A response to a request that wrote
carries the bookmark of its write (Neo4j's own, opaque); a request that sends it back (any replica, any method)
is answered only once the database it reads holds that write — on one server at once, on a cluster a follower
waits for it (up to Neo4j's bookmark timeout: then 503 `bookmark_not_reached`). A value the database did not
issue is 422 `invalid_bookmark`. The Python client sends the newest bookmark it was given on every request.

Within one replica nothing is needed: on one server every write is visible to every later transaction, and
through a routing URI the replica's sessions chain on each other (graph/driver.py `Graph.bookmarks`).
A pure ASGI middleware, around everything the app serves (the direct save and `/mcp` included)."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from graph.driver import causal

HEADER = "Cognition-Bookmark"
_NAME = HEADER.lower().encode()
MAX_HEADER_BYTES = 16 * 1024  # a bookmark is ~50 bytes; more than this in the header is not a bookmark list


class Causal:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        after = [b.strip() for name, value in scope["headers"] if name == _NAME
                 for b in value[:MAX_HEADER_BYTES].decode("latin-1").split(",") if b.strip()]
        with causal(after) as written:

            async def send_bookmark(message: Message) -> None:
                if message["type"] == "http.response.start" and written:
                    message = {**message, "headers": [*message.get("headers", []),
                                                      (_NAME, ",".join(written).encode("latin-1"))]}
                await send(message)

            await self.app(scope, receive, send_bookmark)
