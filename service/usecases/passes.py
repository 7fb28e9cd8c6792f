"""Digest and GC passes over one partition, as the service runs them: the runtime's clock and GC configuration,
and each applied pass's decisions counted for /metrics."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from digest import gc, passes
from digest.explain import Explanation
from digest.explain import explain as explain_artifact
from digest.passes import PassRequest, Progress
from service import metrics
from service.usecases.runtime import Runtime


async def run_digest(rt: Runtime, *, namespace: str, cognitive_owner: str, phases: Sequence[str], actor: str,
                     dry_run: bool = False, as_of: datetime | None = None,
                     progress: Progress | None = None) -> dict[str, Any]:
    """One digest phase (`["archive"]` or `["remove"]`, never both) over one partition: the pass and its decisions.
    409 `digest_in_progress` while another pass holds the partition."""
    out = await passes.run_pass(rt.graph, PassRequest(namespace=namespace, cognitive_owner=cognitive_owner,
                                                      phases=phases, actor=actor, dry_run=dry_run, as_of=as_of),
                                progress=progress, now=rt.clock())
    metrics.record_pass(out)
    return out


async def run_gc(rt: Runtime, *, namespace: str, cognitive_owner: str, phases: Sequence[str], actor: str,
                 dry_run: bool = False, as_of: datetime | None = None, max_entries: int | None = None,
                 progress: Progress | None = None) -> dict[str, Any]:
    """One GC pass (TTL batch and capacity eviction, or the removal of what earlier GC passes archived)."""
    out = await gc.run_gc(rt.graph, namespace=namespace, cognitive_owner=cognitive_owner, actor=actor,
                          config=rt.gc, phases=phases, dry_run=dry_run, as_of=as_of, max_entries=max_entries,
                          progress=progress, now=rt.clock())
    metrics.record_pass(out)
    return out


async def get_pass(rt: Runtime, pass_id: str) -> dict[str, Any]:
    return await passes.get_pass(rt.graph, pass_id)


async def explain(rt: Runtime, artifact_id: str) -> Explanation:
    """Why was this artifact archived, removed or kept: the decisions about it, each citing its evidence."""
    return await explain_artifact(rt.graph, artifact_id)
