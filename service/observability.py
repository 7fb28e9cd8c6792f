"""Observability without leaks: one JSON line per request and Prometheus metrics at `/metrics`.

A request log line holds the route *template* (never the concrete path or query, which carry ids and search
text), the method, the status, the latency in ms and the key id — never content, never a credential or the
Authorization header.

Metrics (all on this module's registry):
- `cognition_http_request_duration_seconds{method, route, status}`  histogram, route = template;
- `cognition_gate_refusals_total{code, rule}`  writes refused by the threat scan / content-quality gate
  (service/pipeline.py calls `gate_refused`);
- `cognition_decisions_total{kind, rule}`  digest and GC decisions (`record_decisions(kind, rule, n)`, or
  `record_pass(outcome)` with a pass's answer);
- the process collector (`process_*`: CPU, memory, open fds).
"""

from __future__ import annotations

import collections
import json
import logging
import sys
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.process_collector import ProcessCollector
from starlette.types import ASGIApp, Message, Receive, Scope, Send

REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)

REQUEST_LATENCY = Histogram(
    "cognition_http_request_duration_seconds", "HTTP request latency by method, route template and status",
    ["method", "route", "status"], registry=REGISTRY,
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0))
GATE_REFUSALS = Counter(
    "cognition_gate_refusals", "Writes refused by a write-pipeline gate, by refusal code and rule",
    ["code", "rule"], registry=REGISTRY)
DECISIONS = Counter(
    "cognition_decisions", "Digest and GC decisions, by kind (digest | gc) and rule",
    ["kind", "rule"], registry=REGISTRY)

UNMATCHED = "<unmatched>"  # 404s for paths no route serves: one label value, not one per probed path

access_log = logging.getLogger("cognition.access")
warmup_log = logging.getLogger("cognition.warmup")  # service/warmup.py


def gate_refused(code: str, rule: str) -> None:
    """Called where the write pipeline refuses a write (service/pipeline.py)."""
    GATE_REFUSALS.labels(code=code, rule=rule).inc()


def record_decisions(kind: str, rule: str, n: int = 1) -> None:
    """Count `n` digest or GC decisions taken under `rule` (`kind` is "digest" or "gc")."""
    if n > 0:
        DECISIONS.labels(kind=kind, rule=rule).inc(n)


def record_pass(outcome: Mapping[str, Any]) -> None:
    """Count a pass's decisions by rule — one call after `run_pass` / `run_gc` in the service layer (digest/
    cannot import service/). Dry runs decide nothing and are not counted."""
    info = outcome.get("pass") or {}
    if info.get("dry_run"):
        return
    kind = str(info.get("kind") or "digest")
    for rule, n in collections.Counter(str(d.get("rule")) for d in outcome.get("decisions") or []).items():
        record_decisions(kind, rule, n)


def render_metrics() -> tuple[bytes, str]:
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


class JsonLines(logging.Formatter):
    """A record's `fields` (or its message) as one JSON object per line."""

    def format(self, record: logging.LogRecord) -> str:
        fields: dict[str, Any] = getattr(record, "fields", None) or {"message": record.getMessage()}
        at = datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")
        return json.dumps({"ts": at, "level": record.levelname.lower(), "logger": record.name, **fields},
                          ensure_ascii=False, default=str)


def configure_logging(stream: Any = None) -> None:
    """Send request logs, and the start-up warm-up's line (service/warmup.py), to stderr as JSON lines
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
