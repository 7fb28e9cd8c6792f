"""Digest (and GC) passes over one partition `(namespace, cognitive_owner)`.

A pass is an admitted routine with a lease: one pass per partition at a time. Its work is one set-based Cypher
query (`cypher/<kind>/run.cypher`): the kind's rules decide every decision of the phase, then the decisions are
written `CALL { … } IN TRANSACTIONS`, each inner transaction recording a batch of decisions as graph facts *and*
applying them, so a pass killed midway leaves every artifact either untouched or archived/removed together with
the decision that explains it. Re-running after the lease expires resumes the interrupted pass (same id):
applied decisions are skipped (their ids exist, their artifacts moved on), the rest are written, the pass
finishes. A dry run lists the same rules' decisions (`cypher/<kind>/candidates.cypher`) without applying them.

Archive and remove are separate passes: a request for both is refused, which is what keeps archive reversible.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from tenacity import AsyncRetrying, retry_if_exception, stop_after_attempt, wait_exponential

from digest.negation import derive_subject, is_negating
from graph import passes as repo
from graph.driver import Graph
from graph.errors import Conflict, Invalid, NotFound, Unavailable

PHASES = ("archive", "remove")
STALE_AFTER = timedelta(days=30)  # INV-MEM-29: role-tier memories with zero recall for 30+ days
BATCH = 5000  # decisions per inner transaction: fewer commits (each pays the invariant trigger), bounded memory
LEASE = timedelta(seconds=60)  # extended by every inner transaction of the pass
RETRIES = 3  # runs of a pass query refused by a transient error (each resumes where the last one stopped)

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class PassRequest:
    namespace: str
    cognitive_owner: str
    phases: Sequence[str]
    actor: str
    dry_run: bool = False
    as_of: datetime | None = None
    kind: str = "digest"  # or "gc": the rules are cypher/<kind>/candidates.cypher and run.cypher
    params: dict[str, Any] = field(default_factory=dict)  # extra parameters of the kind's rules


def validate(req: PassRequest) -> str:
    """The one phase of the request; refuses archive + remove together."""
    phases = list(dict.fromkeys(req.phases))
    if set(phases) >= {"archive", "remove"}:
        raise Invalid("archiving and removing in one pass is forbidden: archive, then remove in a later pass",
                      code="archive_and_remove_in_one_pass", details={"field": "phases"})
    if len(phases) != 1 or phases[0] not in PHASES:
        raise Invalid("phases must be [\"archive\"] or [\"remove\"]", code="invalid_phases",
                      details={"field": "phases"})
    if req.as_of is not None and not req.dry_run:
        raise Invalid("as_of is for dry runs only", code="as_of_requires_dry_run", details={"field": "as_of"})
    return phases[0]


async def run_pass(graph: Graph, req: PassRequest, *, now: datetime | None = None, batch: int = BATCH,
                   lease: timedelta = LEASE, progress: Progress | None = None) -> dict[str, Any]:
    phase = validate(req)
    now = req.as_of or now or datetime.now(UTC)
    params = {"namespace": req.namespace, "owner": req.cognitive_owner, "stale_before": now - STALE_AFTER,
              "now": now, **req.params}
    if req.dry_run:
        listed = await graph.read(repo.candidates, name=f"{req.kind}/candidates", phase=phase, pass_id="dry-run",
                                  **params)
        return {"pass": {"id": None, "kind": req.kind, "phase": phase, "namespace": req.namespace,
                         "cognitive_owner": req.cognitive_owner, "dry_run": True, "as_of": now, "state": "dry_run"},
                "decisions": listed}

    lid = repo.lease_id(req.namespace, req.cognitive_owner)
    new_pass = {"id": uuid.uuid4().hex, "kind": req.kind, "phase": phase, "namespace": req.namespace,
                "cognitive_owner": req.cognitive_owner, "state": "running", "started_at": now, "actor": req.actor,
                "dry_run": False}

    async def acquire(tx: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        held = await repo.claim_lease(tx, lease=lid)
        running = held["pass"] if held["pass"] and held["pass"].get("state") == "running" else None
        if running is not None:
            if held["lease_until"] is not None and held["lease_until"] > now:
                raise Conflict(f"pass {running['id']} is running on this partition", code="digest_in_progress",
                               details={"pass_id": running["id"]})
            # Its worker died: resume that pass (same id, same phase and rules) and finish it.
            p = await repo.take_lease(tx, lease=lid, pass_props=running, lease_until=now + lease, resume=True)
        else:
            p = await repo.take_lease(tx, lease=lid, pass_props=new_pass, lease_until=now + lease, resume=False)
        if p.get("kind", req.kind) != "digest":
            return p, []
        # The digest's judgement before its rules, in this same transaction when nothing needs classifying
        # (memories saved through the service are classified at save time): one round trip, not three.
        unclassified = await repo.unclassified(tx, namespace=req.namespace, owner=req.cognitive_owner)
        if not unclassified:
            await refresh_flags(tx, req.namespace, req.cognitive_owner, params["stale_before"], now=now,
                                actor=f"{req.kind}:{p['id']}")
        return p, unclassified

    p, unclassified = await graph.write(acquire)
    kind = req.kind
    if p["id"] != new_pass["id"]:
        phase, kind = p["phase"], p.get("kind", req.kind)
        if kind != req.kind:  # a resumed pass keeps its own rules
            raise Conflict(f"an interrupted {kind} pass {p['id']} holds this partition; re-run {kind}",
                           code="digest_in_progress", details={"pass_id": p["id"]})
    if unclassified:
        await classify(graph, unclassified)
        await graph.write(refresh_flags, req.namespace, req.cognitive_owner, params["stale_before"], now=now,
                          actor=f"{kind}:{p['id']}")

    # By id, across attempts: a re-run after a transient refusal no longer sees (as candidates) what the
    # committed batches of the refused run already archived, so their decisions are kept from that run.
    by_id: dict[str, dict[str, Any]] = {}
    applied = 0

    def batch_done(row: dict[str, Any]) -> None:  # one record per inner transaction, as it commits
        nonlocal applied
        by_id.update((d["id"], d) for d in row["batch"])
        applied += int(row["applied"])
        if progress:
            progress(len(by_id), max(int(row["total"]), len(by_id)))

    async for attempt in AsyncRetrying(retry=retry_if_exception(_busy), stop=stop_after_attempt(RETRIES),
                                       wait=wait_exponential(multiplier=0.2, max=2.0), reraise=True):
        with attempt:
            # Only a resumed pass, or a re-run of its query, can find some of its decisions already written.
            resumed = p["id"] != new_pass["id"] or attempt.retry_state.attempt_number > 1
            await repo.run_decisions(graph, kind, on_record=batch_done, phase=phase, pass_id=p["id"], lease_id=lid,
                                     lease=lease, actor=f"{kind}:{p['id']}", batch=batch, resumed=resumed, **params)
    decisions = list(by_id.values())
    counts = {f"n_{a}": sum(1 for d in decisions if d["action"] == a) for a in ("archive", "remove", "keep")}
    finished = await graph.write(repo.finish, lease=lid, pass_id=p["id"], now=datetime.now(UTC),
                                 counts={**counts, "n_applied": applied})
    if progress and not decisions:
        progress(0, 0)
    return {"pass": finished, "decisions": decisions}


def _busy(exc: BaseException) -> bool:
    """A transient refusal (deadlock, memory pressure): the whole pass query is safe to run again."""
    return isinstance(exc, Unavailable) and exc.code == "neo4j_busy"


async def classify(graph: Graph, rows: list[dict[str, Any]]) -> None:
    """Memories never classified (raw writes): negation polarity and (derived) subject, written back in batches."""
    for start in range(0, len(rows), BATCH):
        chunk = [{"id": r["id"], "negating": is_negating(r["content"] or ""),
                  "subject": r["subject"] or derive_subject(r["content"] or "")} for r in rows[start:start + BATCH]]
        await graph.write(repo.classify, rows=chunk)


async def refresh_flags(tx: Any, namespace: str, owner: str, stale_before: datetime, *, now: datetime,
                        actor: str) -> None:
    """Supersession, then staleness, over the partition: set-based, inside the caller's transaction."""
    await repo.supersede(tx, namespace=namespace, owner=owner, now=now, actor=actor)
    await repo.mark_stale(tx, namespace=namespace, owner=owner, stale_before=stale_before, now=now, actor=actor)


async def get_pass(graph: Graph, pass_id: str) -> dict[str, Any]:
    out = await graph.read(repo.get_pass, pass_id=pass_id)
    if out is None:
        raise NotFound(f"no pass {pass_id}", code="pass_not_found")
    return out
