"""Artifact use cases — one service layer for the HTTP API, the MCP tools and Python callers. Each operation is
one transaction; every write passes the write pipeline (service/gates/pipeline.py) first. Inputs are domain values
(drafts and changes, service/usecases/drafts.py; the actor; the runtime with its clock), never a request."""

from __future__ import annotations

import json
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from digest.explain import explain
from digest.negation import derive_subject, is_negating
from graph import artifacts as repo
from graph import scopes as scopes_repo
from graph.errors import Conflict, Forbidden, Invalid, NotFound, PreconditionFailed
from graph.model import ADVISORY, KERNELS, LABELS, VALID_TIME, Artifact, EdgeType, Family
from service import metrics
from service.gates.pipeline import HOLD_REASON, Candidate, GateRefusal, Hold, screen
from service.gates.provenance import resolve_source
from service.search import embedding, ranking, scope_index, temporal
from service.search.ranking import lucene_query
from service.usecases import recordtime
from service.usecases.access import AGENT
from service.usecases.drafts import Change, Draft, sha256
from service.usecases.runtime import Runtime
from service.usecases.timeview import CURRENT, Resolved, TimeView, valid_at

VIEWS = ("support", "lineage", "invalidation", "cleanup")


def new_id() -> str:
    return uuid.uuid4().hex


# ---- from drafts to stored properties ------------------------------------------------------------------------

def candidate(draft: Draft) -> Candidate:
    return Candidate(family=draft.family, tier=draft.tier or None, content=draft.content, texts=dict(draft.texts))


# How far ahead of the service's clock a caller's occurred_at may be (clocks disagree a little); more is refused.
CLOCK_SKEW = timedelta(minutes=5)


def check_times(drafts: Sequence[Draft], now: datetime) -> None:
    """Validation of the caller's times against the service's clock: nothing occurred in the future (beyond a small
    skew), and a validity ends after it begins (valid_from defaults to occurred_at)."""
    for i, d in enumerate(drafts):
        if d.occurred_at is not None and d.occurred_at > now + CLOCK_SKEW:
            raise Invalid("occurred_at is in the future", code="occurred_in_future",
                          details={"field": "occurred_at", "index": i})
        if d.family in VALID_TIME and d.valid_until is not None:
            begins = d.valid_from or min(d.occurred_at or now, now)
            if d.valid_until <= begins:
                raise Invalid("valid_until must be after valid_from (which defaults to occurred_at)",
                              code="invalid_validity", details={"field": "valid_until", "index": i})


def to_row(draft: Draft, *, scope_id: str, now: datetime, actor: str, role: str = AGENT) -> dict[str, Any]:
    occurred = draft.occurred_at or now
    props: dict[str, Any] = {
        **draft.fields,
        "id": new_id(), "scope_id": scope_id, "family": draft.family.value, "content": draft.content,
        "content_hash": sha256(draft.content), "metadata": json.dumps(dict(draft.metadata)),
        # accessed_at floor: never 0/epoch, raised to created_at on every save.
        "created_at": now, "updated_at": now, "accessed_at": now,
        "recall_count": 0, "stale": False, "conflicted": False, "revision": 1, "created_by": actor,
        # Provenance (service/gates/provenance.py): stored as the service decided it, shown in the record.
        "source": resolve_source(draft.source, role).value,
        "occurred_at": occurred,
    }
    if draft.family in VALID_TIME:
        # Valid from when it happened unless the caller says otherwise (never later than the save itself: a
        # slightly fast caller clock must not hide a new fact for a few minutes).
        props["valid_from"] = draft.valid_from or min(occurred, now)
        props["valid_until"] = draft.valid_until
    if draft.family in ADVISORY:
        # The times its text names ("yesterday" in a text that happened on 8 May is 7 May), resolved once here
        # rather than by every scope copy that loads it (service/search/temporal).
        text = f"{draft.title}\n{draft.content}" if draft.title else draft.content
        props["said"] = temporal.said_of(text, temporal.ns(occurred))
    if draft.title is not None:
        props["title"] = draft.title
    if draft.family is Family.memory:
        # Supersession needs each memory's polarity and subject; computed once, here.
        props["negating"] = is_negating(draft.content)
        if props.get("subject") is None:
            props["subject"] = derive_subject(draft.content)
            props["subject_derived"] = props["subject"] is not None
    relations = [{"type": r.type, "to_id": r.to_id} for r in draft.relations]
    return {"labels": ["Artifact", LABELS[draft.family]], "props": props, "event_id": new_id(),
            "relations": relations, "supersedes": list(draft.supersedes)}


# ---- use cases ------------------------------------------------------------------------------------------------

async def _refuse(rt: Runtime, scope_id: str, actor: str, family: Family, refusal: GateRefusal) -> None:
    """Record the refusal (rule, content hash, actor, time — never the content), then raise it."""
    try:
        await rt.graph.write(repo.record_refusal, scope_id=scope_id, event_id=new_id(), now=rt.clock(), actor=actor,
                             op="refuse_write", code=refusal.code, rule=refusal.rule,
                             content_sha256=refusal.content_sha256, family=family.value, field=refusal.field_name)
    finally:
        raise refusal


def scope_missing(scope_id: str) -> NotFound:
    return NotFound(f"no scope {scope_id}", code="scope_not_found")


def not_found(family: Family, id: str) -> NotFound:
    return NotFound(f"no {family.value} {id} in this scope", code="not_found")


@dataclass(frozen=True, slots=True)
class SaveResult:
    items: list[Artifact]
    replayed: bool = False


async def save(rt: Runtime, scope_id: str, drafts: Sequence[Draft], *, actor: str,
               idempotency_key: str | None = None, role: str = AGENT) -> SaveResult:
    """validate (done) → threat scan → content quality → embed → write approval + persist (one transaction:
    the approval gate is read in the persist query itself). The drafts are of one family. `role` is the calling
    key's: it sets the default `source` of what is saved (service/gates/provenance.py)."""
    family = drafts[0].family
    if any(d.family is not family for d in drafts):
        raise Invalid("a batch holds records of one family", details={"field": "items"})
    for d in drafts:  # validation: a source the key may not claim is refused before any gate runs
        resolve_source(d.source, role)
    check_times(drafts, rt.clock())
    holds: dict[int, Hold] = {}
    try:
        holds = screen([candidate(d) for d in drafts], rt.thresholds)
    except GateRefusal as refusal:
        await _refuse(rt, scope_id, actor, family, refusal)
    now = rt.clock()
    # A batch's rows are created one microsecond apart, in request order: "created before" then means the
    # same for a batch as for single saves (the scope index's neighbouring episodes, list order).
    rows = [to_row(d, scope_id=scope_id, now=now + timedelta(microseconds=i), actor=actor, role=role)
            for i, d in enumerate(drafts)]
    if family is not Family.working_state:  # working state is never served as truth: nothing to quarantine
        for i, h in holds.items():
            # Quarantine: save.cypher stores a held row `pending` whatever the write policy says.
            rows[i]["props"].update(hold_reason=HOLD_REASON, hold_score=h.score, hold_layer=h.layer)
    if family in ADVISORY:  # working state is never searched, so never embedded
        await embedding.embed_rows(rt.embedder, rows)
    # Only an idempotent save needs the request's fingerprint.
    request_hash = sha256(json.dumps([family.value] + [d.request for d in drafts], sort_keys=True)
                          ) if idempotency_key is not None else ""

    async def work(tx: Any) -> SaveResult:
        if idempotency_key is not None:
            claim = await repo.claim_idempotency(tx, key_id=f"{scope_id}|{family.value}|{idempotency_key}",
                                                 request_hash=request_hash,
                                                 ids=[r["props"]["id"] for r in rows], now=now)
            if not claim["fresh"]:
                if claim["hash"] != request_hash:
                    raise Invalid("this Idempotency-Key was used with a different request",
                                  code="idempotency_key_reused")
                replay = await repo.get_many(tx, scope_id=scope_id, ids=claim["ids"])
                return SaveResult([Artifact.from_node(p) for p in replay], replayed=True)
        out = await repo.save(tx, scope_id=scope_id, rows=rows, now=now, actor=actor)
        if out is None:
            raise scope_missing(scope_id)
        denied, saved = out
        if denied:
            raise Forbidden(f"the scope's write policy denies writes of {', '.join(sorted(set(denied)))}",
                            code="write_denied")
        decided = {s["id"]: s for s in saved}
        items = []
        for row in rows:
            got = decided[row["props"]["id"]]
            if got["linked"] != len(row["relations"]):
                raise NotFound("a relation names a knowledge page that is not in this scope",
                               code="relation_target_not_found")
            items.append(Artifact.from_node({**row["props"], "status": got["status"], "conflicted": got["conflicted"],
                                             "relations": got["relations"]}))
        for row in rows:
            if row["supersedes"]:
                await _supersede(tx, scope_id, row["props"]["id"], row["supersedes"], now=now, actor=actor)
        return SaveResult(items)

    rt.indexes.behind(scope_id)  # this process's next recall of the scope reads its version first
    if idempotency_key is not None or any(r["relations"] or r["supersedes"] for r in rows):
        return await rt.graph.write(work)  # several queries, or a refusal (a missing relation target) to roll back

    # One query, and what `work` may still refuse after it (a missing scope, a denying policy) the query did not
    # write: one auto-commit transaction, one round trip. After a lost connection, the save's own ids tell whether
    # the attempt committed (graph/driver.py `write_once`).
    ids = [r["props"]["id"] for r in rows]

    async def committed() -> SaveResult | None:
        found = await rt.graph.read(repo.get_many, scope_id=scope_id, ids=ids)
        return SaveResult([Artifact.from_node(p) for p in found]) if len(found) == len(ids) else None

    return await rt.graph.write_once(work, committed=committed)


async def _supersede(tx: Any, scope_id: str, by: str, ids: Sequence[str], *, now: datetime, actor: str) -> None:
    """`by` supersedes each of `ids` (an explicit `supersedes`), in the caller's transaction; a refusal rolls back
    the whole write."""
    out = await repo.supersede(tx, scope_id=scope_id, by=by, ids=list(dict.fromkeys(ids)), now=now, actor=actor)
    missing = [r["id"] for r in out if not r["found"]]
    if missing:
        raise NotFound("supersedes names records that are not in this scope and family", code="supersedes_not_found",
                       details={"field": "supersedes", "ids": missing})
    late = [r["id"] for r in out if not r["ordered"]]
    if late:
        raise Conflict("a superseded record's validity must begin before the new one's valid_from",
                       code="supersession_out_of_order", details={"field": "supersedes", "ids": late})


async def load(rt: Runtime, scope_id: str, id: str, families: Sequence[Family],
               view: TimeView = CURRENT) -> Artifact:
    """By id. As the store holds it now (a recall: counted), or with `view.known_at` as it held it then (not a
    recall); with `view.as_of`, only if it was valid then (404 `not_valid_at` otherwise)."""
    at = view.resolved(rt.clock())
    if at.known_at is not None:
        art = await recordtime.load_at(rt, scope_id, id, families, at.known_at)
    else:
        rec = await rt.graph.write(repo.load, scope_id=scope_id, id=id, families=[f.value for f in families],
                                   now=rt.clock())
        if rec["artifact"] is None:
            if rec["tombstone"] is not None:
                raise NotFound(f"{id} was removed", code="artifact_removed")
            raise not_found(families[0], id)
        art = Artifact.from_node(rec["artifact"])
    if view.as_of is not None and not valid_at(art, at.as_of):
        raise NotFound(f"{id} was not valid at {at.as_of.isoformat()}", code="not_valid_at",
                       details={"valid_from": art.valid_from.isoformat() if art.valid_from else None,
                                "valid_until": art.valid_until.isoformat() if art.valid_until else None})
    return art


@dataclass(frozen=True, slots=True)
class ListFilter:
    """A list's typed filters (None: no filter). `order` is `created` (created_at, id) or `occurred`
    (occurred_at, id); None chooses `occurred` when an occurred_at bound is given."""

    status: str = "active"
    kind: str | None = None
    tier: str | None = None
    tag: str | None = None
    created_after: datetime | None = None
    created_before: datetime | None = None
    occurred_after: datetime | None = None
    occurred_before: datetime | None = None
    order: str | None = None

    @property
    def ordered_by(self) -> str:
        if self.order is not None:
            return self.order
        return "occurred" if self.occurred_after is not None or self.occurred_before is not None else "created"


async def list_page(rt: Runtime, scope_id: str, family: Family, *, status: str = "active", kind: str | None = None,
                    tier: str | None = None, tag: str | None = None, created_after: datetime | None = None,
                    created_before: datetime | None = None, after: tuple[datetime, str] | None = None,
                    limit: int = 50, occurred_after: datetime | None = None, occurred_before: datetime | None = None,
                    order: str | None = None, view: TimeView = CURRENT) -> tuple[list[Artifact], bool]:
    """One page in a stable order (`order`: created_at or occurred_at, then id), starting after the position `after`
    (the last row of the page before); and whether more rows follow. Current truth unless `view` says otherwise:
    records valid at `as_of` (all of them with include_invalid), from the store as it is or as it was at
    `known_at`."""
    f = ListFilter(status=status, kind=kind, tier=tier, tag=tag, created_after=created_after,
                   created_before=created_before, occurred_after=occurred_after, occurred_before=occurred_before,
                   order=order)
    at = view.resolved(rt.clock())
    if at.known_at is not None:
        return await recordtime.list_at(rt, scope_id, family, f, after=after, limit=limit, at=at)
    cursor_at, cursor_id = after if after else (None, None)
    rows = await rt.graph.read(repo.list_page, order=f.ordered_by, scope_id=scope_id, family=family.value,
                               status=status, kind=kind, tier=tier, tag=tag, created_after=created_after,
                               created_before=created_before, occurred_after=occurred_after,
                               occurred_before=occurred_before, as_of=None if at.include_invalid else at.as_of,
                               cursor_at=cursor_at, cursor_id=cursor_id, limit=limit + 1)
    return [Artifact.from_node(r) for r in rows[:limit]], len(rows) > limit


async def search(rt: Runtime, scope_id: str, families: Sequence[Family], *, query: str, kind: str | None = None,
                 tier: str | None = None, tag: str | None = None, include_archived: bool = False,
                 limit: int = 10, recall: bool = True, params: ranking.RankingParams | None = None,
                 view: TimeView = CURRENT, occurred_after: datetime | None = None,
                 occurred_before: datetime | None = None) -> list[tuple[Artifact, float]]:
    """Explicit search, hybrid-ranked (service/search/ranking.py). Not behind RecallQualityOK: stale rows come back
    flagged, and with include_invalid superseded ones too. One query; hits count as recalls when `recall`."""
    hits, _ = await search_answer(rt, scope_id, families, query=query, kind=kind, tier=tier, tag=tag,
                                  include_archived=include_archived, limit=limit, recall=recall, params=params,
                                  view=view, occurred_after=occurred_after, occurred_before=occurred_before)
    return hits


async def search_answer(rt: Runtime, scope_id: str, families: Sequence[Family], *, query: str,
                        kind: str | None = None, tier: str | None = None, tag: str | None = None,
                        include_archived: bool = False, limit: int = 10, recall: bool = True,
                        params: ranking.RankingParams | None = None, view: TimeView = CURRENT,
                        occurred_after: datetime | None = None,
                        occurred_before: datetime | None = None) -> tuple[list[tuple[Artifact, float]], Resolved]:
    """`search`, and the view of time it answered in (what adapters show the caller)."""
    at, _ = view.resolved(rt.clock()).asked(query)
    if at.known_at is not None:  # the store as it was: a read of the past, never a recall
        found = await recordtime.search_at(rt, scope_id, families, query=query, kind=kind, tier=tier, tag=tag,
                                           include_archived=include_archived, limit=limit, params=params, at=at,
                                           occurred=(occurred_after, occurred_before))
        return found, at
    hits = await search_ranked(rt, scope_id, families, query=query, kind=kind, tier=tier, tag=tag,
                               include_archived=include_archived, limit=limit, recall=recall, params=params,
                               view=view, occurred_after=occurred_after, occurred_before=occurred_before)
    return [(Artifact.from_node(h.artifact), h.score) for h in hits], at


async def search_ranked(rt: Runtime, scope_id: str, families: Sequence[Family], *, query: str,
                        kind: str | None = None, tier: str | None = None, tag: str | None = None,
                        include_archived: bool = False, limit: int = 10, recall: bool = True,
                        params: ranking.RankingParams | None = None, view: TimeView = CURRENT,
                        occurred_after: datetime | None = None,
                        occurred_before: datetime | None = None) -> list[ranking.RankedHit]:
    """`search` with each hit's ranks and retention (for tests and diagnostics), in the store as it is."""
    params = params or rt.ranking
    at, when = view.resolved(rt.clock()).asked(query)
    statuses = ["active", "archived"] if include_archived else ["active"]
    fams = [f.value for f in families if f in (Family.memory, Family.knowledge, Family.skill)]
    lucene = lucene_query(query, scope_id=scope_id, families=fams, statuses=statuses)
    model = rt.embedder
    qvec = await embedding.embed_query(model, query) if model is not None else None
    # Filters checked on the live rows after the copy ranked them: the copy ranks more candidates.
    filtered = (kind is not None or tier is not None or tag is not None or occurred_after is not None
                or occurred_before is not None or view.as_of is not None or view.now is not None)
    fetch = params.fetch(limit, filtered=filtered)

    def make(held: scope_index.ScopeCopy | None) -> Callable[[Any], Awaitable[list[ranking.RankedHit] | None]]:
        async def work(tx: Any) -> list[ranking.RankedHit] | None:
            # Ranked by the copy in hand (its version checked by the query's guard), or by the scope index with its
            # version read in this transaction, then the query runs.
            ft_ids, vec_ids = (await scope_index.rank(rt.indexes, tx if held is None else held, scope_id,
                                                      query=query, qvec=qvec, model=model, families=fams,
                                                      fetch=fetch, params=params, when=when)
                               if params.scope_index else (None, None))
            hybrid = ranking.hybrid_params(lucene=lucene, qvec=qvec, model=model.name if model else None,
                                           scope_id=scope_id, families=fams, statuses=statuses, fetch=fetch,
                                           now=rt.clock(), kind=kind, tier=tier, tag=tag, params=params,
                                           min_cosine=embedding.min_cosine(model), ft_ids=ft_ids, vec_ids=vec_ids,
                                           as_of=at.as_of, any_time=at.include_invalid,
                                           occurred_from=occurred_after, occurred_to=occurred_before,
                                           held=held.version if held is not None else None)
            return await ranking.hybrid_search(tx, limit=limit, recall=recall, **hybrid)
        return work

    # One auto-commit query when the process holds a copy of the scope (or ranks by Lucene), as a context call is
    # (service/usecases/context.assemble); a transaction that reads the version first when it holds none or the
    # guard finds the scope moved.
    held = rt.indexes.held(scope_id, model.name if model else None) if params.scope_index else None
    if held is not None or not params.scope_index:
        hits = await rt.graph.write_once(make(held), committed=None)
        if hits is not None:
            metrics.record_recall("search", "one_query")
            return hits
    metrics.record_recall("search", "read_first" if held is None else "moved")
    got = await rt.graph.write(make(None))
    assert got is not None  # the version was read in this transaction: the guard is not asked
    return got


async def update(rt: Runtime, scope_id: str, id: str, families: Sequence[Family], change: Change, *,
                 actor: str) -> Artifact:
    """A new revision, if the record is still at `change.expected_revision` (412 `revision_mismatch` naming the
    current one otherwise)."""
    family = families[0]
    c = Candidate(family=family, tier=None, content=change.content, texts=dict(change.texts))
    try:
        if (held := screen([c], rt.thresholds)) and family is not Family.working_state:
            # A revision cannot be quarantined without hiding the approved one before it: refused instead.
            rule = held[0].rule
            raise GateRefusal("threat_pattern_detected", rule, field_name="content", index=0, offset=None,
                              content_sha256=c.fingerprint(),
                              message=f"refused by the threat scan ({rule}): an update the scan would quarantine "
                                      "is refused (a new record would be held for review)")
    except GateRefusal as refusal:
        await _refuse(rt, scope_id, actor, family, refusal)
    expected = change.expected_revision
    now = rt.clock()
    occurred = change.fields.get("occurred_at")
    if occurred is not None and occurred > now + CLOCK_SKEW:
        raise Invalid("occurred_at is in the future", code="occurred_in_future", details={"field": "occurred_at"})
    params = dict(scope_id=scope_id, id=id, families=[f.value for f in families], expected=expected,
                  changes=change.stored(), now=now, actor=actor, event_id=new_id())

    async def work(tx: Any) -> dict[str, Any]:
        rec = await repo.update(tx, **params)
        if rec["updated"] is not None and change.supersedes:  # an update that says what it replaces
            await _supersede(tx, scope_id, id, change.supersedes, now=now, actor=actor)
        return rec

    rt.indexes.behind(scope_id)
    rec = await (rt.graph.write(work) if change.supersedes else rt.graph.write(repo.update, **params))
    if not rec["found"]:
        raise not_found(family, id)
    if rec["denied"]:
        raise Forbidden("the scope's write policy denies this write", code="write_denied")
    if not rec["ordered"]:
        raise Invalid("valid_until must be after valid_from", code="invalid_validity",
                      details={"field": "valid_until"})
    if rec["updated"] is None:
        raise PreconditionFailed(f"{id} is at revision {rec['current']}, not {expected}; read it again",
                                 details={"current_revision": rec["current"]})
    art = Artifact.from_node(rec["updated"])
    if art.family in ADVISORY:  # re-embed the new revision (until then vector ranking skips the row)
        await embedding.refresh(rt.graph, rt.embedder, scope_id=scope_id, id=art.id, revision=art.revision,
                                props=rec["updated"])
    return art


async def kernel_id(rt: Runtime, scope_id: str, family: Family) -> str:
    ids = rt.kernels.get(scope_id)
    if ids is None:
        scope = await rt.graph.read(scopes_repo.get, scope_id)
        if scope is None:
            raise scope_missing(scope_id)
        ids = (str(scope["agent_kernel_id"]), str(scope["world_kernel_id"]))
        rt.kernels.put(scope_id, ids)
    return ids[0] if family is Family.agent_kernel else ids[1]


async def update_kernel(rt: Runtime, scope_id: str, family: Family, change: Change, *, actor: str) -> Artifact:
    return await update(rt, scope_id, await kernel_id(rt, scope_id, family), [family], change, actor=actor)


async def get_kernel(rt: Runtime, scope_id: str, family: Family) -> Artifact:
    """Load a scope's agent or world kernel (a recall)."""
    return await load(rt, scope_id, await kernel_id(rt, scope_id, family), [family])


async def delete(rt: Runtime, scope_id: str, id: str, families: Sequence[Family], *, detach: bool,
                 reason: str | None, actor: str) -> list[str]:
    """Explicit destructive delete; returns the dependents left pointing at the tombstone."""
    rt.indexes.behind(scope_id)
    rec = await rt.graph.write(repo.delete, scope_id=scope_id, id=id,
                               families=[f.value for f in families] + [f.value for f in KERNELS], detach=detach,
                               now=rt.clock(), actor=actor, reason=reason or "explicit delete", event_id=new_id())
    if not rec["found"]:
        tomb = await rt.graph.read(repo.get, scope_id=scope_id, id=id)
        if tomb["tombstone"] is not None and tomb["tombstone"]["family"] in [f.value for f in families]:
            raise NotFound(f"{id} was already removed", code="artifact_removed")
        raise not_found(families[0], id)
    if rec["family"] in {f.value for f in KERNELS}:
        raise Conflict("kernels are core truth: they go only with their scope", code="kernel_not_deletable")
    if not rec["deleted"]:
        raise Conflict(f"{len(rec['dependents'])} active artifact(s) depend on {id}; delete with detach=true to "
                       "leave them pointing at its tombstone", code="has_dependents",
                       details={"dependents": rec["dependents"]})
    return list(rec["dependents"])


async def history(rt: Runtime, scope_id: str, id: str, families: Sequence[Family],
                  view: TimeView = CURRENT) -> list[dict[str, Any]]:
    """The record's revisions and events, oldest first. With `view.known_at`, those the store held then; with
    `view.as_of`, the revisions that were valid then (the versions of the record that described the world at
    that instant) and every event."""
    at = view.resolved(rt.clock())
    items = await rt.graph.read(repo.history, scope_id=scope_id, id=id, families=[f.value for f in families],
                                known_at=at.known_at)
    if not items:
        # Every artifact has at least its revision 1 and save event; nothing means not here (or not yet).
        raise not_found(families[0], id)
    if view.as_of is not None:
        items = [i for i in items if i["type"] != "revision" or valid_at(i, at.as_of)]
    return items


async def view(rt: Runtime, scope_id: str, id: str, families: Sequence[Family], name: str) -> dict[str, Any]:
    if name not in VIEWS:
        raise NotFound(f"no view {name!r}; views are {', '.join(VIEWS)}", code="unknown_view")
    if name == "cleanup":
        # The cleanup view is the digest's typed explanation, confined to the caller's scope and family.
        try:
            why = await explain(rt.graph, id)
        except NotFound:
            raise not_found(families[0], id) from None
        if why.scope_id != scope_id or why.family not in {f.value for f in families}:
            raise not_found(families[0], id)
        return why.model_dump(mode="json", exclude={"id"})
    out = await rt.graph.read(repo.view, name=name, scope_id=scope_id, id=id, families=[f.value for f in families])
    if out is None:
        raise not_found(families[0], id)
    return out


async def create_edge(rt: Runtime, scope_id: str, *, type: EdgeType, from_id: str, to_id: str,
                      relation: str | None) -> dict[str, Any]:
    if (type is EdgeType.RELATES_TO) != (relation is not None):
        raise Invalid("`relation` is required with RELATES_TO and only there", code="invalid_relation",
                      details={"field": "relation"})
    if from_id == to_id:
        raise Invalid("an artifact cannot reference itself", code="self_reference", details={"field": "to_id"})
    row = await rt.graph.write(repo.create_edge, scope_id=scope_id, type=type, from_id=from_id, to_id=to_id,
                               relation=relation)
    if row is None:
        raise NotFound("both ends must be artifacts of this scope (not working state)", code="not_found")
    return row


async def delete_edge(rt: Runtime, scope_id: str, *, type: EdgeType, from_id: str, to_id: str,
                      relation: str | None) -> None:
    n = await rt.graph.write(repo.delete_edge, scope_id=scope_id, type=type, from_id=from_id, to_id=to_id,
                             relation=relation)
    if n == 0:
        raise NotFound("no such relationship in this scope", code="not_found")


async def clear_working_state(rt: Runtime, scope_id: str, *, actor: str) -> int:
    n = await rt.graph.write(repo.clear_working_state, scope_id=scope_id, now=rt.clock(), actor=actor,
                             event_id=new_id())
    if n is None:
        raise scope_missing(scope_id)
    return n


async def restore(rt: Runtime, scope_id: str, id: str, families: Sequence[Family], *, actor: str,
                  reason: str | None) -> Artifact:
    """Bring an archived artifact back to active (archive is reversible). An event."""
    rec = await rt.graph.write(repo.restore, scope_id=scope_id, id=id, families=[f.value for f in families],
                               now=rt.clock(), actor=actor, event_id=new_id(), reason=reason)
    if not rec["found"]:
        raise not_found(families[0], id)
    if rec["was"] != "archived":
        raise Conflict(f"{id} is {rec['was']}, not archived", code="not_archived")
    return Artifact.from_node(rec["restored"])
