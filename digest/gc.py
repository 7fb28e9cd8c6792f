"""GC over one partition: per-tier TTL (one batch per run) and capacity eviction by lowest RetentionScore,
never evicting the exempt kinds (constraint, instruction, environment — by kind, the same for every actor).

GC runs through the same audited archive → remove lifecycle as the digest (digest/passes.py): a GC pass
archives with rules `ttl_expired` / `capacity_eviction`; a later GC pass removes what an earlier, finished
GC pass archived. Decisions are graph facts, explained like digest decisions (`cognition explain ID`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from digest.passes import PassRequest, Progress, run_pass
from digest.retention import RetentionWeights, weights_param
from graph.driver import Graph
from graph.model import GC_EXEMPT_KINDS

DEFAULT_TTL = {"session": timedelta(hours=24), "working": timedelta(days=7), "agent": timedelta(days=30)}


@dataclass(frozen=True, slots=True)
class GCConfig:
    max_entries: int | None = 10_000  # per partition (active memories); None: no capacity cap
    ttl: dict[str, timedelta] = field(default_factory=lambda: dict(DEFAULT_TTL))  # tier -> TTL; `role` has none
    ttl_batch: int = 500  # at most this many TTL reclaims per run
    weights: RetentionWeights = field(default_factory=RetentionWeights)


async def run_gc(graph: Graph, *, namespace: str, cognitive_owner: str, actor: str, config: GCConfig,
                 phases: Sequence[str] = ("archive",), dry_run: bool = False, as_of: datetime | None = None,
                 max_entries: int | None = None, progress: Progress | None = None,
                 now: datetime | None = None) -> dict[str, Any]:
    params = {
        "ttl": {tier: int(ttl.total_seconds()) for tier, ttl in config.ttl.items()},
        "ttl_batch": config.ttl_batch,
        "max_entries": max_entries if max_entries is not None else config.max_entries,
        "exempt_kinds": sorted(k.value for k in GC_EXEMPT_KINDS),
        "w": weights_param(config.weights),
    }
    req = PassRequest(namespace=namespace, cognitive_owner=cognitive_owner, phases=phases, actor=actor,
                      dry_run=dry_run, as_of=as_of, kind="gc", params=params)
    return await run_pass(graph, req, progress=progress, now=now)
