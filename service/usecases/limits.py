"""Rate limits: per API key and per namespace, reads and writes apart, each a token bucket (a sustained rate and a
burst), checked in the process — no round trip on a request's path.

Every `/v1` request and every MCP tool call takes one token from its key's bucket and one from its namespace's
bucket (the namespace of the scope or pass it names, or the `namespace` it names; none for key-wide routes), of its
class: `read` (the `read` operation: loads, lists, searches, context, history, views, export) or `write`
(everything else). Both buckets must hold a token, or neither is spent and the request is refused before any work:
429 `rate_limited`, with `Retry-After` and the `RateLimit` / `RateLimit-Policy` fields of
draft-ietf-httpapi-ratelimit-headers-11 naming the policy that refused it.

Several replicas on one Neo4j share each limit: every replica keeps its own buckets at `rate ÷ live replicas` (burst
likewise, at least one token), the live count read from a heartbeat each replica writes to Neo4j
(`cypher/limits/heartbeat.cypher`, every `COGNITION_RATE_HEARTBEAT_S`). With the replicas behind one load balancer
each sees its share of a key's traffic, so the shares add up to the limit; docs/operations.md gives the measured
error. A replica that stops leaving (`replica_leave`) or falling silent for three beats gives its share back."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from graph import replicas
from graph.driver import Graph
from graph.errors import CognitionError
from service.usecases.access import Operation
from service.usecases.background import running

_log = logging.getLogger("cognition.limits")
MAX_BUCKETS = 200_000  # least recently used dropped first; a dropped bucket comes back full


class RateLimited(CognitionError):
    """Too many requests for a key's or a namespace's limit: retry after `retry_after` seconds."""

    code = "rate_limited"

    def __init__(self, message: str, *, policy: str, retry_after: float, quota: int, window: int) -> None:
        super().__init__(message, details={"policy": policy, "retry_after": math.ceil(retry_after)})
        self.policy, self.retry_after, self.quota, self.window = policy, retry_after, quota, window

    def headers(self) -> dict[str, str]:
        """Retry-After, and the draft-11 fields: the refusing policy's quota (the bucket's capacity, `q`) over the
        seconds the bucket takes to fill from empty (`w`), nothing remaining (`r=0`) until `t` seconds."""
        wait = max(1, math.ceil(self.retry_after))
        return {"Retry-After": str(wait), "RateLimit-Policy": f'"{self.policy}";q={self.quota};w={self.window}',
                "RateLimit": f'"{self.policy}";r=0;t={wait}'}


@dataclass(frozen=True, slots=True)
class Limit:
    rate: float  # tokens a second; 0 = no limit
    burst_s: float  # the bucket holds `rate × burst_s` tokens (at least one)

    @property
    def on(self) -> bool:
        return self.rate > 0


@dataclass(frozen=True, slots=True)
class Limits:
    key_read: Limit
    key_write: Limit
    namespace_read: Limit
    namespace_write: Limit

    @property
    def on(self) -> bool:
        return any(lim.on for lim in (self.key_read, self.key_write, self.namespace_read, self.namespace_write))

    @classmethod
    def off(cls) -> Limits:
        none = Limit(0.0, 0.0)
        return cls(none, none, none, none)


class _Bucket:
    __slots__ = ("tokens", "at")

    def __init__(self, tokens: float, at: float) -> None:
        self.tokens, self.at = tokens, at


class RateLimiter:
    """The buckets of one replica. `share` is this replica's part of every limit (1 ÷ live replicas)."""

    def __init__(self, limits: Limits, *, clock: Callable[[], float] = time.monotonic,
                 max_buckets: int = MAX_BUCKETS) -> None:
        self.limits = limits
        self.clock = clock
        self.share = 1.0
        self.max_buckets = max_buckets
        self._buckets: OrderedDict[tuple[str, str, str], _Bucket] = OrderedDict()

    @property
    def on(self) -> bool:
        return self.limits.on

    def take(self, key_id: str, namespace: str | None, operation: Operation) -> None:
        """Spend one token of the key's and one of the namespace's bucket of the operation's class; RateLimited
        (spending nothing) when either is empty."""
        if not self.limits.on:
            return
        kind, now = _kind(operation), self.clock()
        wanted = [("key", key_id)] + ([("namespace", namespace)] if namespace is not None else [])
        held = [self._filled(who, name, kind, now) for who, name in wanted if self._limit(who, kind).on]
        for bucket in held:
            bucket.tokens -= 1.0

    def check_key(self, key_id: str, operation: Operation) -> None:
        """RateLimited when the key's own bucket of the operation's class is empty, spending nothing: the answer
        `take` gives now to every request of this key and class. The HTTP stack asks it first (service/http/
        limits.py `RateGate`), so a key over its limit costs a look-up, not a routed and checked request."""
        kind = _kind(operation)
        if self._limit("key", kind).on:
            self._filled("key", key_id, kind, self.clock())

    def _limit(self, who: str, kind: str) -> Limit:
        lims = self.limits
        if who == "key":
            return lims.key_read if kind == "read" else lims.key_write
        return lims.namespace_read if kind == "read" else lims.namespace_write

    def _filled(self, who: str, name: str, kind: str, now: float) -> _Bucket:
        """The bucket refilled to `now`; RateLimited when it holds less than a token."""
        rate, cap = self._sized(self._limit(who, kind))
        bucket = self._bucket((who, name, kind), cap, now)
        bucket.tokens = min(cap, bucket.tokens + (now - bucket.at) * rate)
        bucket.at = now
        if bucket.tokens < 1.0:
            raise RateLimited(f"too many {kind}s for this {who}: retry later", policy=f"{who}-{kind}",
                              retry_after=(1.0 - bucket.tokens) / rate, quota=math.floor(cap),
                              window=max(1, math.ceil(cap / rate)))
        return bucket

    def _sized(self, limit: Limit) -> tuple[float, float]:
        rate = limit.rate * self.share
        return rate, max(1.0, limit.rate * limit.burst_s * self.share)

    def _bucket(self, name: tuple[str, str, str], cap: float, now: float) -> _Bucket:
        bucket = self._buckets.get(name)
        if bucket is None:
            bucket = self._buckets[name] = _Bucket(cap, now)
            if len(self._buckets) > self.max_buckets:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(name)
        return bucket


def _kind(operation: Operation) -> str:
    """A request's class: `read` for the read operation, `write` for every other."""
    return "read" if operation is Operation.read else "write"


# ---- the replicas' heartbeat -------------------------------------------------------------------------------------

@contextlib.asynccontextmanager
async def heartbeat(graph: Graph, limiter: RateLimiter, *, every_s: float,
                    clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> AsyncIterator[None]:
    """While the app serves (limits on): beat now, then every `every_s` seconds, setting the limiter's share from the
    live count; leave at the end. A beat that fails (Neo4j away) keeps the last share."""
    if not limiter.on:
        yield
        return
    me = uuid.uuid4().hex

    async def beat() -> None:
        live = await replicas.beat(graph, replica_id=me, now=clock(), live_s=3 * every_s)
        limiter.share = 1.0 / max(1, live)

    async def loop() -> None:
        while True:
            await asyncio.sleep(every_s)
            try:
                await beat()
            except CognitionError as exc:
                _log.warning("replica heartbeat failed (%s); keeping a share of 1/%d", exc.code,
                             round(1 / limiter.share))

    with contextlib.suppress(CognitionError):  # Neo4j away at start: the share stays 1 until a beat lands
        await beat()
    try:
        async with running(loop()):
            yield
    finally:
        with contextlib.suppress(CognitionError):
            await replicas.leave(graph, replica_id=me)
