"""`cognition mcp`: the MCP server over stdio, for clients that launch it as a subprocess.

The key comes from the environment (`COGNITION_API_KEY`) and is verified like a bearer token: at start (a bad
key exits at once, with a message on stderr) and again on every tool call through the same cached
`Authenticator`, so a revoked key stops working within the key cache TTL. Neo4j as `cognition serve` finds it.
stdout carries the protocol; everything else goes to stderr.
"""

from __future__ import annotations

import sys

from graph.driver import Graph
from graph.errors import CognitionError
from graph.schema import apply_schema
from service.mcp.server import Binding, build_server, key_from_secret
from service.settings import Settings
from service.usecases import warmup
from service.usecases.runtime import Runtime, neo4j_config

KEY_ENV = "COGNITION_API_KEY"


async def serve(settings: Settings, secret: str) -> int:
    graph = Graph.connect(neo4j_config(settings))
    try:
        guard = (await apply_schema(graph, guard=settings.scope_guard)).guard \
            if settings.apply_schema_on_start else None
        rt = await Runtime.start(graph, settings, guard=guard)  # as the app's lifespan makes it
        try:
            principal = await rt.auth.authenticate(secret)
        except CognitionError as exc:
            print(f"cognition mcp: {KEY_ENV}: {exc.message}", file=sys.stderr, flush=True)
            return 2
        print(f"[cognition] MCP over stdio as key {principal.key_id} ({principal.role})", file=sys.stderr,
              flush=True)
        server = build_server(Binding(rt), key_from_secret(secret))
        # As `cognition serve` does: the context and search plans made before the client's first call.
        async with warmup.in_background(rt, enabled=settings.warm_plans):
            await server.run_stdio_async()
        return 0
    finally:
        await graph.close()
