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
from service import embedding, warmup
from service.auth import Authenticator
from service.mcp.server import Runtime, build_server, key_from_secret
from service.settings import Settings

KEY_ENV = "COGNITION_API_KEY"


async def serve(settings: Settings, secret: str) -> int:
    from service.app import neo4j_config  # the app's own reading of the Neo4j settings

    graph = Graph.connect(neo4j_config(settings))
    try:
        if settings.apply_schema_on_start:
            await apply_schema(graph)
        auth = Authenticator(graph, ttl=settings.key_cache_ttl)
        try:
            principal = await auth.authenticate(secret)
        except CognitionError as exc:
            print(f"cognition mcp: {KEY_ENV}: {exc.message}", file=sys.stderr, flush=True)
            return 2
        embedder = embedding.make_embedder(settings.embedder)  # as the app's lifespan does
        previous = embedding.configure(embedder)
        try:
            if embedder is not None:
                await embedding.ensure_vector_index(graph, embedder)
            print(f"[cognition] MCP over stdio as key {principal.key_id} ({principal.role})", file=sys.stderr,
                  flush=True)
            server = build_server(Runtime(graph, auth), key_from_secret(secret))
            # As `cognition serve` does: the context and search plans made before the client's first call.
            async with warmup.in_background(graph, enabled=settings.warm_plans):
                await server.run_stdio_async()
        finally:
            embedding.configure(previous)
        return 0
    finally:
        await graph.close()
