"""The FastAPI application: one async driver per process, made in the lifespan."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from graph.driver import Graph, Neo4jConfig
from graph.schema import apply_schema
from service import errors
from service.api import artifacts, health, scopes
from service.settings import Settings


def neo4j_config(settings: Settings) -> Neo4jConfig:
    if not settings.neo4j_uri or not settings.neo4j_password:
        raise RuntimeError("NEO4J_URI and NEO4J_PASSWORD must be set (the `cognition serve` command sets them "
                           "for the managed local Neo4j)")
    return Neo4jConfig(settings.neo4j_uri, settings.neo4j_user, settings.neo4j_password, settings.neo4j_database)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        graph = Graph.connect(neo4j_config(settings))
        app.state.graph = graph
        try:
            if settings.apply_schema_on_start:
                await apply_schema(graph)
            yield
        finally:
            await graph.close()

    app = FastAPI(title="Cognition", version="0.1.0", lifespan=lifespan,
                  description="A typed memory service for autonomous agents, backed by a real Neo4j graph.")
    errors.install(app)
    app.include_router(health.router)
    app.include_router(scopes.router)
    for router in artifacts.ROUTERS:
        app.include_router(router)
    return app
