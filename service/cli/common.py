"""What every `cognition` command shares: the managed local Neo4j started when NEO4J_URI is not set, and a
runtime of its own to run a use case against."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable, Callable
from typing import TypeVar

from graph.driver import Graph
from service import neo4j_local
from service.settings import Settings
from service.usecases.runtime import Runtime, neo4j_config

T = TypeVar("T")
# How a command module adds its sub-command: add(name, handler, help) -> the sub-command's parser.
AddCommand = Callable[[str, Callable[[argparse.Namespace], int], str], argparse.ArgumentParser]


def instance(name: str) -> neo4j_local.LocalInstance:
    return neo4j_local.INSTANCES[name]


def ensure_neo4j(settings: Settings, name: str) -> bool:
    """Point the settings at a server; start the managed one when NEO4J_URI is not set. True if we started it."""
    if settings.neo4j_uri:
        if not settings.neo4j_password:
            sys.exit("NEO4J_URI is set but NEO4J_PASSWORD is not")
        return False
    inst = instance(name)
    was_running = neo4j_local.status(inst) is not None
    password = neo4j_local.start(inst)
    settings.neo4j_uri, settings.neo4j_password = inst.uri, password
    return not was_running


def with_graph(args: argparse.Namespace, fn: Callable[[Graph], Awaitable[T]]) -> T:
    """Run `fn` against the configured Neo4j (the managed one started if needed), with a Graph of its own."""
    settings = Settings()
    ensure_neo4j(settings, args.instance)

    async def main() -> T:
        graph = Graph.connect(neo4j_config(settings))
        try:
            return await fn(graph)
        finally:
            await graph.close()

    return asyncio.run(main())


def with_runtime(args: argparse.Namespace, fn: Callable[[Runtime], Awaitable[T]]) -> T:
    """Run the use case `fn` on a runtime the settings describe, against the configured Neo4j."""
    settings = Settings()

    async def run(graph: Graph) -> T:
        return await fn(await Runtime.start(graph, settings))

    return with_graph(args, run)
