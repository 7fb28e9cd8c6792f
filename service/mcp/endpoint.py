"""`/mcp` as the app mounts it: the MCP SDK and the tools (service/mcp/http.py, ≈ 0.6 s of CPU to import on a
2-core machine) load in a worker thread PRELOAD_AFTER seconds after the app has started, or at the first MCP
request if one comes sooner, so start-up, `/readyz` and the first API calls neither wait for them nor share the
interpreter with them. An MCP request that arrives before they are loaded waits for them (up to LOAD_TIMEOUT)."""

from __future__ import annotations

import asyncio
import importlib
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import Any

from starlette.types import Receive, Scope, Send

from service.usecases.runtime import Runtime

PATH = "/mcp"
PRELOAD_AFTER = 3.0
LOAD_TIMEOUT = 60.0
log = logging.getLogger("cognition.mcp")


class McpEndpoint:
    def __init__(self, *, host: str) -> None:
        self.host = host  # a loopback host turns on the SDK's DNS-rebinding protection (Host / Origin checks)
        self._inner: Any = None  # service.mcp.http.McpServing, once loaded and serving
        self._loaded: asyncio.Event | None = None
        self._wanted: asyncio.Event | None = None

    @asynccontextmanager
    async def serving(self, rt: Runtime) -> AsyncIterator[None]:
        """Serve `/mcp` for the app's lifetime (call inside its lifespan); the SDK loads in the background."""
        loaded, stop, wanted = asyncio.Event(), asyncio.Event(), asyncio.Event()
        self._loaded, self._wanted = loaded, wanted

        async def run() -> None:
            try:
                with suppress(TimeoutError):
                    await asyncio.wait_for(wanted.wait(), PRELOAD_AFTER)
                if stop.is_set():
                    return
                module = await asyncio.to_thread(importlib.import_module, "service.mcp.http")
                inner = module.McpServing(host=self.host)
                async with inner.serving(rt):
                    self._inner = inner
                    loaded.set()
                    await stop.wait()
            except Exception:  # noqa: BLE001 - the API serves on; /mcp answers 503 and the log says why
                log.exception("the MCP endpoint failed to start")
            finally:
                self._inner = None
                loaded.set()

        task = asyncio.create_task(run(), name="mcp-endpoint")
        try:
            yield
        finally:
            stop.set()
            wanted.set()
            await task
            self._loaded = self._wanted = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        loaded = self._loaded
        if loaded is not None and not loaded.is_set():
            if self._wanted is not None:
                self._wanted.set()
            with suppress(TimeoutError):
                await asyncio.wait_for(loaded.wait(), LOAD_TIMEOUT)
        inner = self._inner
        if inner is None:
            await _starting(send)
            return
        await inner(scope, receive, send)


async def _starting(send: Send) -> None:
    raw = json.dumps({"code": "starting", "message": "the service is starting or stopping"}).encode()
    await send({"type": "http.response.start", "status": 503,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode())]})
    await send({"type": "http.response.body", "body": raw})
