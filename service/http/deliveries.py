"""The webhook delivery worker: every replica runs one. It leases the webhooks that are due (a Neo4j lease, so one
worker at a time delivers a webhook), posts each one's next events in feed order, one request an event, signed the
Standard Webhooks way, and settles: the cursor moves past what the receiver acknowledged (2xx), a failure (an
error status, a refused connection, a timeout) stops the round and sets the next attempt after an exponential
backoff. Delivery is at least once: a worker stopped between a receiver's answer and the settle sends that event
again, with the same `webhook-id` (the event's id), so a receiver can drop the repeat."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import json
import logging
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from graph import webhooks as repo
from graph.errors import CognitionError
from service.http.routes.events import public
from service.settings import Settings
from service.usecases import events
from service.usecases.background import running
from service.usecases.runtime import Runtime

if TYPE_CHECKING:
    import httpx  # imported by the first client made (`Client`), not at start-up

_log = logging.getLogger("cognition.webhooks")
CLAIM_AT_ONCE = 8


@dataclass(frozen=True, slots=True)
class DeliveryConfig:
    poll_s: float = 0.5
    timeout_s: float = 10.0
    backoff_s: float = 1.0
    backoff_max_s: float = 600.0
    lease_s: float = 60.0
    batch: int = 100

    @classmethod
    def of(cls, s: Settings) -> DeliveryConfig:
        return cls(s.webhook_poll_s, s.webhook_timeout_s, s.webhook_backoff_s, s.webhook_backoff_max_s,
                   s.webhook_lease_s, s.webhook_batch)

    def backoff(self, failures: int) -> float:
        return float(min(self.backoff_max_s, self.backoff_s * 2 ** max(0, min(failures - 1, 30))))


def sign(secret: str, msg_id: str, timestamp: int, body: str) -> str:
    """The `webhook-signature` value: `v1,` + base64 HMAC-SHA256 over `{id}.{timestamp}.{body}`, keyed with the
    secret's bytes (after `whsec_`)."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    mac = hmac.new(key, f"{msg_id}.{timestamp}.{body}".encode(), hashlib.sha256).digest()
    return "v1," + base64.b64encode(mac).decode()


async def deliver(rt: Runtime, http: httpx.AsyncClient, hook: dict[str, Any], cfg: DeliveryConfig,
                  holder: str) -> int:
    """One round for one leased webhook: how many events the receiver acknowledged."""
    import httpx  # made `http`, so imported already

    namespace, kinds = str(hook["namespace"]), hook.get("kinds")
    failures = int(hook.get("failures") or 0)
    page = await events.read(rt, namespace, after=int(hook["cursor"]), limit=cfg.batch)
    cursor: int | None = None
    log: list[dict[str, Any]] = []
    error: str | None = None
    started, sent = time.monotonic(), 0
    for row in page.events:
        if time.monotonic() - started > cfg.lease_s / 2:  # the rest waits for the next round, under a new lease
            break
        event = public(namespace, row)
        if kinds and event.kind not in kinds:
            cursor = event.position
            continue
        body = json.dumps({"type": f"cognition.{event.kind}", "timestamp": event.at.isoformat(),
                           "data": event.model_dump(mode="json")}, separators=(",", ":"))
        stamp = int(time.time())
        headers = {"content-type": "application/json", "webhook-id": event.id, "webhook-timestamp": str(stamp),
                   "webhook-signature": sign(str(hook["secret"]), event.id, stamp, body)}
        status: int | None = None
        try:
            answer = await http.post(str(hook["url"]), content=body, headers=headers, timeout=cfg.timeout_s)
            status = answer.status_code
            error = None if 200 <= status < 300 else f"status {status}"
        except httpx.HTTPError as exc:
            error = type(exc).__name__
        log.append({"id": event.id, "at": rt.clock(), "status": status, "ok": error is None, "error": error,
                    "attempt": failures + 1, "first": event.position, "last": event.position, "events": 1})
        if error is not None:
            failures += 1
            break
        failures, cursor, sent = 0, event.position, sent + 1
    now = rt.clock()
    next_at = now + timedelta(seconds=cfg.backoff(failures)) if error is not None else now
    await rt.graph.write(repo.settle, id=hook["id"], holder=holder, replays=int(hook.get("replays") or 0),
                         cursor=cursor, failures=failures, next_attempt_at=next_at, last_error=error, log=log)
    return sent


class Client:
    """The worker's HTTP client, made on the first round that has a webhook due rather than at start-up: importing
    httpx (~0.08 s) and making a client (httpcore, the CA bundle: ~0.1-0.2 s, in the event loop) are time a
    replica's start and first requests would wait for, and most replicas deliver to no webhook."""

    def __init__(self) -> None:
        self._http: httpx.AsyncClient | None = None

    def __call__(self) -> httpx.AsyncClient:
        if self._http is None:
            import httpx

            self._http = httpx.AsyncClient(follow_redirects=False)
        return self._http

    async def aclose(self) -> None:
        if self._http is not None:
            await self._http.aclose()


async def run_once(rt: Runtime, client: Client, cfg: DeliveryConfig, holder: str) -> int:
    """Claim the due webhooks and deliver a round to each, concurrently: how many events went out."""
    now: datetime = rt.clock()
    hooks = await rt.graph.write(repo.claim, now=now, until=now + timedelta(seconds=cfg.lease_s), holder=holder,
                                 limit=CLAIM_AT_ONCE)
    if not hooks:
        return 0
    http = client()
    sent = await asyncio.gather(*(deliver(rt, http, h, cfg, holder) for h in hooks), return_exceptions=True)
    for out in sent:
        if isinstance(out, BaseException):
            _log.warning("webhook round failed (%s: %s)", getattr(out, "code", type(out).__name__), out)
    return sum(n for n in sent if isinstance(n, int))


@contextlib.asynccontextmanager
async def worker(rt: Runtime, cfg: DeliveryConfig) -> AsyncIterator[None]:
    """While the app serves: a delivery round every `poll_s` seconds (0: this replica delivers nothing)."""
    if cfg.poll_s <= 0:
        yield
        return
    holder = uuid.uuid4().hex

    async def loop() -> None:
        client = Client()
        try:
            while True:
                try:
                    await run_once(rt, client, cfg, holder)
                except CognitionError as exc:
                    _log.warning("webhook delivery round failed (%s); trying again", exc.code)
                await asyncio.sleep(cfg.poll_s)
        finally:
            await client.aclose()

    async with running(loop()):
        yield
