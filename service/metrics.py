"""The process's Prometheus metrics (served at `/metrics`), labelled so that no tenant data leaks: route
templates, statuses, codes and rules only.

Metrics (all on this module's registry):
- `cognition_http_request_duration_seconds{method, route, status}`  histogram, route = template;
- `cognition_gate_refusals_total{code, rule}`  writes refused by the threat scan / content-quality gate
  (service/gates/pipeline.py calls `gate_refused`);
- `cognition_decisions_total{kind, rule}`  digest and GC decisions (`record_decisions(kind, rule, n)`, or
  `record_pass(outcome)` with a pass's answer);
- `cognition_recall_calls_total{call, path}`  context calls and searches (`call`) by how they were answered
  (`record_recall(call, path)`): `one_query` (one auto-commit query: ranked by the scope copy this process held,
  whose version the query's guard confirmed, or nothing to rank), `moved` (the guard found the scope moved:
  answered again), `read_first` (no copy held: the version read first);
- the process collector (`process_*`: CPU, memory, open fds).
"""

from __future__ import annotations

import collections
from collections.abc import Mapping
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.process_collector import ProcessCollector

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

RECALL_CALLS = Counter(
    "cognition_recall_calls", "Context calls and searches by how they were answered (one_query | moved | read_first)",
    ["call", "path"], registry=REGISTRY)

UNMATCHED = "<unmatched>"  # 404s for paths no route serves: one label value, not one per probed path


def gate_refused(code: str, rule: str) -> None:
    """Called where the write pipeline refuses a write (service/gates/pipeline.py)."""
    GATE_REFUSALS.labels(code=code, rule=rule).inc()


def record_recall(call: str, path: str) -> None:
    """Called once a context call or a search is answered (service/usecases/context.py, artifacts.py), with the
    path that answered it."""
    RECALL_CALLS.labels(call=call, path=path).inc()


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
