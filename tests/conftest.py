"""What every test module may import: the bootstrap key, request helpers, unique names, and the callables the
integration fixtures hand out (their types). The fixtures themselves, against a real Neo4j, are in
tests/integration/conftest.py."""

from __future__ import annotations

import asyncio
import secrets
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from graph.driver import Graph, Neo4jConfig
from service.search.scope_index import ScopeIndexes
from service.usecases.runtime import Runtime

# The first operator key (holds every namespace), installed by the app at start-up; the `client` fixture sends it.
BOOTSTRAP_KEY = "cog_test_" + secrets.token_urlsafe(24)

MintKey = Callable[..., str]
OnGraph = Callable[[Callable[[Graph], Awaitable[Any]]], Any]


def bearer(key: str) -> dict[str, str]:
    """Headers that make one request as another key: `client.get(url, headers=bearer(key))`."""
    return {"Authorization": f"Bearer {key}"}


def unique(prefix: str = "t") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


class OnRuntime:
    """Run a use case against a runtime of its own (own driver, own event loop), as a Python caller would:
    `on_runtime(lambda rt: use.save(rt, …))`. The scope copies (`indexes`) live for the whole test, as they live
    for a process; `**fields` set the runtime's others (`embedder=…`)."""

    def __init__(self, cfg: Neo4jConfig) -> None:
        self.cfg = cfg
        self.indexes = ScopeIndexes()

    def __call__(self, fn: Callable[[Runtime], Awaitable[Any]], **fields: Any) -> Any:
        async def main() -> Any:
            graph = Graph.connect(self.cfg)
            try:
                return await fn(Runtime(graph, indexes=self.indexes, **fields))
            finally:
                await graph.close()

        return asyncio.run(main())
