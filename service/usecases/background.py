"""A task that runs while a context is open: the background loops a process keeps while it serves (the feed's
sequencer, the webhook deliveries, the replicas' heartbeat)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Coroutine
from typing import Any


@contextlib.asynccontextmanager
async def running(work: Coroutine[Any, Any, None]) -> AsyncIterator[None]:
    """Run `work` as a task while the context is open; on the way out cancel it and wait until it has stopped."""
    task = asyncio.create_task(work)
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
