"""Observability without leaks: one JSON line per request, and each request timed into the latency histogram
(service/metrics.py). A request log line holds the route *template* (never the concrete path or query, which
carry ids and search text), the method, the status, the latency in ms and the key id — never content, never a
credential or the Authorization header."""

from __future__ import annotations

import json
import logging
import sys
import time
from datetime import UTC, datetime
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.metrics import REQUEST_LATENCY, UNMATCHED

access_log = logging.getLogger("cognition.access")
warmup_log = logging.getLogger("cognition.warmup")  # service/usecases/warmup.py


class JsonLines(logging.Formatter):
    """A record's `fields` (or its message) as one JSON object per line."""

    def format(self, record: logging.LogRecord) -> str:
        fields: dict[str, Any] = getattr(record, "fields", None) or {"message": record.getMessage()}
        at = datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")
        return json.dumps({"ts": at, "level": record.levelname.lower(), "logger": record.name, **fields},
                          ensure_ascii=False, default=str)


def configure_logging(stream: Any = None) -> None:
    """Send request logs, and the start-up warm-up's line (service/usecases/warmup.py), to stderr as JSON lines
    (idempotent)."""
    if any(isinstance(h.formatter, JsonLines) for h in access_log.handlers):
        return
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonLines())
    access_log.addHandler(handler)
    access_log.setLevel(logging.INFO)
    access_log.propagate = False
    warmup_log.addHandler(handler)
    warmup_log.setLevel(logging.INFO)
    warmup_log.propagate = False  # one line, in the JSON log only


def route_template(scope: Scope) -> str:
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else UNMATCHED


class RequestObserver:
    """Times every HTTP request, observes the latency histogram and writes the request log line."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500  # unless the app starts a response

        async def observed_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, observed_send)
        finally:
            elapsed = time.perf_counter() - started
            route = route_template(scope)
            REQUEST_LATENCY.labels(method=scope["method"], route=route, status=str(status)).observe(elapsed)
            state = scope.get("state") or {}
            access_log.info("request", extra={"fields": {
                "event": "request", "method": scope["method"], "route": route, "status": status,
                "latency_ms": round(elapsed * 1000, 2), "key_id": state.get("key_id")}})
