"""Artifact use cases — one service layer for the HTTP API and Python callers. Each operation is one
managed transaction; every write passes the write pipeline (service/pipeline.py) first."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from digest.explain import explain
from digest.negation import derive_subject, is_negating
from graph import artifacts as repo
from graph.driver import Graph
from graph.errors import CognitionError, Conflict, Forbidden, Invalid, NotFound, PreconditionFailed
from graph.model import ADVISORY, KERNELS, LABELS, Artifact, EdgeType, Family
from service import embedding, ranking, scope_index
from service.api.schemas import (
    KernelUpdate,
    KnowledgeCreate,
    MemoryCreate,
    SkillCreate,
    WorkingStateCreate,
    _Write,
)
from service.auth import AGENT
from service.deps import utcnow
from service.gates.provenance import resolve_source
from service.pipeline import HOLD_REASON, LEARNED_RULE, Candidate, GateRefusal, screen

VIEWS = ("support", "lineage", "invalidation", "cleanup")


def new_id() -> str:
    return uuid.uuid4().hex


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---- from API payloads to stored properties ----------------------------------------------------------------

def _searchable(body: _Write) -> tuple[str, str | None]:
    """(content, title) as stored: what the full-text index reads."""
    if isinstance(body, KnowledgeCreate):
        return body.body, body.title
    if isinstance(body, SkillCreate):
        return body.when_to_use + "\n" + "\n".join(body.steps), body.name
    return getattr(body, "content", ""), None


def candidate(body: _Write, family: Family) -> Candidate:
    content, _ = _searchable(body) if not _is_update(body) else (_update_content(body), None)
    return Candidate(family=family, tier=str(getattr(body, "tier", None) or "") or None, content=content,
                     texts=body.texts())


def _is_update(body: _Write) -> bool:
    return not isinstance(body, (MemoryCreate, KnowledgeCreate, SkillCreate, WorkingStateCreate))


def _update_content(body: _Write) -> str:
    data = body.model_dump(exclude_none=True)
    return str(data.get("content") or data.get("body") or data.get("when_to_use") or "")


def to_row(body: _Write, family: Family, *, scope_id: str, now: datetime, actor: str,
           role: str = AGENT) -> dict[str, Any]:
    content, title = _searchable(body)
    data = body.model_dump(exclude={"body", "relations", "metadata", "source"}, exclude_none=True)
    props: dict[str, Any] = {
        **{k: (v.value if hasattr(v, "value") else v) for k, v in data.items()},
        "id": new_id(), "scope_id": scope_id, "family": family.value, "content": content,
        "content_hash": sha256(content), "metadata": json.dumps(getattr(body, "metadata", {}) or {}),
        # accessed_at floor (INV-MEM-51): never 0/epoch, raised to created_at on every save.
        "created_at": now, "updated_at": now, "accessed_at": now,
        "recall_count": 0, "stale": False, "conflicted": False, "revision": 1, "created_by": actor,
        # Provenance (service/gates/provenance.py): stored as the service decided it, shown in the record.
        "source": resolve_source(getattr(body, "source", None), role).value,
    }
    if title is not None:
        props["title"] = title
    if family is Family.memory:
        # Supersession (INV-MEM-30) needs each memory's polarity and subject; computed once, here.
        props["negating"] = is_negating(content)
        if props.get("subject") is None:
            props["subject"] = derive_subject(content)
            props["subject_derived"] = props["subject"] is not None
    relations = [r.model_dump() for r in getattr(body, "relations", [])]
    return {"labels": ["Artifact", LABELS[family]], "props": props, "event_id": new_id(), "relations": relations}


def update_changes(body: _Write) -> dict[str, Any]:
    data = body.model_dump(exclude_unset=True, exclude_none=True)
    changes: dict[str, Any] = {}
    for k, v in data.items():
        if k == "body":
            changes["content"] = v
        elif k == "metadata":
            changes["metadata"] = json.dumps(v)
        else:
            changes[k] = v
    if "content" in changes:
        changes["content_hash"] = sha256(changes["content"])
    if changes.keys() & {"content", "title", "name", "when_to_use", "steps"}:
        # An operator approved the text they read: new text needs a new approval (setting null removes it).
        changes["approved_by"] = changes["approved_at"] = None
    return changes


# ---- ETags and cursors -------------------------------------------------------------------------------------

def etag(art: Artifact) -> str:
    return f'"{art.revision}"'


_ETAG = re.compile(r'^\s*(?:W/)?"?(\d{1,12})"?\s*$')


def parse_if_match(value: str | None) -> int:
    if value is None:
        raise CognitionError("updates need If-Match with the ETag of the revision you read",
                             code="if_match_required", status=428)
    m = _ETAG.match(value)
    if not m:
        raise PreconditionFailed(f"If-Match {value!r} names no revision of this record")
    return int(m.group(1))


def encode_cursor(art: Artifact) -> str:
    raw = json.dumps([art.created_at.isoformat(), art.id]).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    try:
        at, aid = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        return datetime.fromisoformat(at), str(aid)
    except Exception as exc:
        raise Invalid("cursor is not one this service issued", code="invalid_cursor",
                      details={"field": "cursor"}) from exc


# ---- Lucene --------------------------------------------------------------------------------------------------

_LUCENE_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')


def lucene_query(text: str, *, scope_id: str, families: list[str], statuses: list[str]) -> str:
    """Escape the caller's text (lower-cased, so AND/OR/NOT are words, not operators) and confine the query
    to one scope, its families and statuses inside Lucene itself."""
    terms = _LUCENE_SPECIAL.sub(r"\\\1", text.lower()).strip()
    if not terms:
        raise Invalid("query has no searchable text", code="empty_query", details={"field": "query"})
    esc = _LUCENE_SPECIAL.sub(r"\\\1", scope_id)
    return (f"+scope_id:{esc} +family:({' '.join(families)}) +status:({' '.join(statuses)}) "
            f"+(content:({terms}) title:({terms}))")


# ---- use cases ------------------------------------------------------------------------------------------------

async def _refuse(graph: Graph, scope_id: str, actor: str, family: Family, refusal: GateRefusal) -> None:
    """Record the refusal (rule, content hash, actor, time — never the content), then raise it."""
    try:
        await graph.write(repo.record_refusal, scope_id=scope_id, event_id=new_id(), now=utcnow(), actor=actor,
                          op="refuse_write", code=refusal.code, rule=refusal.rule,
                          content_sha256=refusal.content_sha256, family=family.value, field=refusal.field_name)
    finally:
        raise refusal


def _scope_missing(scope_id: str) -> NotFound:
    return NotFound(f"no scope {scope_id}", code="scope_not_found")


def _not_found(family: Family, id: str) -> NotFound:
    return NotFound(f"no {family.value} {id} in this scope", code="not_found")


@dataclass(frozen=True, slots=True)
class SaveResult:
    items: list[Artifact]
    replayed: bool = False


async def save(graph: Graph, scope_id: str, family: Family, bodies: list[_Write], *, actor: str,
               idempotency_key: str | None = None, embedder: Any = embedding.CONFIGURED,
               role: str = AGENT) -> SaveResult:
    """validate (done) → threat scan → content quality → embed → write approval + persist (one transaction:
    the approval gate is read in the persist query itself). `role` is the calling key's: it sets the default
    `source` of what is saved (service/gates/provenance.py)."""
    for b in bodies:  # validation: a source the key may not claim is refused before any gate runs
        resolve_source(getattr(b, "source", None), role)
    holds: dict[int, float] = {}
    try:
        holds = screen([candidate(b, family) for b in bodies])
    except GateRefusal as refusal:
        await _refuse(graph, scope_id, actor, family, refusal)
    now = utcnow()
    # A batch's rows are created one microsecond apart, in request order: "created before" then means the
    # same for a batch as for single saves (the scope index's neighbouring episodes, list order).
    rows = [to_row(b, family, scope_id=scope_id, now=now + timedelta(microseconds=i), actor=actor, role=role)
            for i, b in enumerate(bodies)]
    if family is not Family.working_state:  # working state is never served as truth: nothing to quarantine
        for i, p in holds.items():
            # Quarantine: save.cypher stores a held row `pending` whatever the write policy says.
            rows[i]["props"].update(hold_reason=HOLD_REASON, hold_score=p)
    if family in ADVISORY:  # working state is never searched, so never embedded
        await embedding.embed_rows(embedding.resolve(embedder), rows)
    # Only an idempotent save needs the request's fingerprint.
    request_hash = sha256(json.dumps([family.value] + [b.model_dump(mode="json") for b in bodies], sort_keys=True)
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
            raise _scope_missing(scope_id)
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
        return SaveResult(items)

    if idempotency_key is not None or any(r["relations"] for r in rows):
        return await graph.write(work)  # several queries, or a refusal (a missing relation target) to roll back

    # One query, and what `work` may still refuse after it (a missing scope, a denying policy) the query did not
    # write: one auto-commit transaction, one round trip. After a lost connection, the save's own ids tell whether
    # the attempt committed (graph/driver.py `write_once`).
    ids = [r["props"]["id"] for r in rows]

    async def committed() -> SaveResult | None:
        found = await graph.read(repo.get_many, scope_id=scope_id, ids=ids)
        return SaveResult([Artifact.from_node(p) for p in found]) if len(found) == len(ids) else None

    return await graph.write_once(work, committed=committed)


async def load(graph: Graph, scope_id: str, id: str, families: list[Family]) -> Artifact:
    rec = await graph.write(repo.load, scope_id=scope_id, id=id, families=[f.value for f in families], now=utcnow())
    if rec["artifact"] is None:
        if rec["tombstone"] is not None:
            raise NotFound(f"{id} was removed", code="artifact_removed")
        raise _not_found(families[0], id)
    return Artifact.from_node(rec["artifact"])


async def list_page(graph: Graph, scope_id: str, family: Family, *, status: str, kind: str | None,
                    tier: str | None, tag: str | None, created_after: datetime | None,
                    created_before: datetime | None, cursor: str | None,
                    limit: int) -> tuple[list[Artifact], str | None]:
    cursor_at, cursor_id = decode_cursor(cursor) if cursor else (None, None)
    rows = await graph.read(repo.list_page, scope_id=scope_id, family=family.value, status=status, kind=kind,
                            tier=tier, tag=tag, created_after=created_after, created_before=created_before,
                            cursor_at=cursor_at, cursor_id=cursor_id, limit=limit + 1)
    items = [Artifact.from_node(r) for r in rows[:limit]]
    return items, (encode_cursor(items[-1]) if len(rows) > limit else None)


async def search(graph: Graph, scope_id: str, families: list[Family], *, query: str, kind: str | None = None,
                 tier: str | None = None, tag: str | None = None, include_archived: bool = False,
                 limit: int = 10, recall: bool = True, embedder: Any = embedding.CONFIGURED,
                 params: ranking.RankingParams = ranking.DEFAULT) -> list[tuple[Artifact, float]]:
    """Explicit search, hybrid-ranked (service/ranking.py). Not behind RecallQualityOK: stale and conflicted
    rows come back flagged. One query; hits count as recalls when `recall`."""
    hits = await search_ranked(graph, scope_id, families, query=query, kind=kind, tier=tier, tag=tag,
                               include_archived=include_archived, limit=limit, recall=recall,
                               embedder=embedder, params=params)
    return [(Artifact.from_node(h.artifact), h.score) for h in hits]


async def search_ranked(graph: Graph, scope_id: str, families: list[Family], *, query: str,
                        kind: str | None = None, tier: str | None = None, tag: str | None = None,
                        include_archived: bool = False, limit: int = 10, recall: bool = True,
                        embedder: Any = embedding.CONFIGURED,
                        params: ranking.RankingParams = ranking.DEFAULT) -> list[ranking.RankedHit]:
    """`search` with each hit's ranks and retention (for tests and diagnostics)."""
    statuses = ["active", "archived"] if include_archived else ["active"]
    fams = [f.value for f in families if f in (Family.memory, Family.knowledge, Family.skill)]
    lucene = lucene_query(query, scope_id=scope_id, families=fams, statuses=statuses)
    model = embedding.resolve(embedder)
    qvec = await embedding.embed_query(model, query) if model is not None else None
    filtered = kind is not None or tier is not None or tag is not None
    fetch = params.fetch(limit, filtered=filtered)

    async def work(tx: Any) -> list[ranking.RankedHit]:
        # The scope index's version is read in this transaction, then the copy ranks, then the query runs.
        ft_ids, vec_ids = (await scope_index.rank(tx, scope_id, query=query, qvec=qvec, model=model,
                                                  families=fams, fetch=fetch, params=params)
                           if params.scope_index else (None, None))
        hybrid = ranking.hybrid_params(lucene=lucene, qvec=qvec, model=model.name if model else None,
                                       scope_id=scope_id, families=fams, statuses=statuses, fetch=fetch,
                                       now=utcnow(), kind=kind, tier=tier, tag=tag, params=params,
                                       min_cosine=embedding.min_cosine(model), ft_ids=ft_ids, vec_ids=vec_ids)
        return await ranking.hybrid_search(tx, limit=limit, recall=recall, **hybrid)

    return await graph.write(work)


async def update(graph: Graph, scope_id: str, id: str, families: list[Family], body: _Write, *,
                 if_match: str | None, actor: str, embedder: Any = embedding.CONFIGURED) -> Artifact:
    expected = parse_if_match(if_match)
    family = families[0]
    try:
        if screen([candidate(body, family)]) and family is not Family.working_state:
            # A revision cannot be quarantined without hiding the approved one before it: refused instead.
            c = candidate(body, family)
            raise GateRefusal("threat_pattern_detected", LEARNED_RULE, field_name="content", index=0, offset=None,
                              content_sha256=c.fingerprint(),
                              message=f"refused by the threat scan ({LEARNED_RULE}): an update the learned "
                                      "detector is unsure of is refused (a new record would be quarantined)")
    except GateRefusal as refusal:
        await _refuse(graph, scope_id, actor, family, refusal)
    changes = update_changes(body)
    rec = await graph.write(repo.update, scope_id=scope_id, id=id, families=[f.value for f in families],
                            expected=expected, changes=changes, now=utcnow(), actor=actor, event_id=new_id())
    if not rec["found"]:
        raise _not_found(family, id)
    if rec["denied"]:
        raise Forbidden("the scope's write policy denies this write", code="write_denied")
    if rec["updated"] is None:
        raise PreconditionFailed(f"{id} is at revision {rec['current']}, not {expected}; read it again",
                                 details={"current_revision": rec["current"]})
    art = Artifact.from_node(rec["updated"])
    if art.family in ADVISORY:  # re-embed the new revision (until then vector ranking skips the row)
        await embedding.refresh(graph, embedding.resolve(embedder), scope_id=scope_id, id=art.id,
                                revision=art.revision, props=rec["updated"])
    return art


async def update_kernel(graph: Graph, scope_id: str, family: Family, body: KernelUpdate, *, if_match: str | None,
                        actor: str) -> Artifact:
    kid = await kernel_id(graph, scope_id, family)
    return await update(graph, scope_id, kid, [family], body, if_match=if_match, actor=actor)


async def get_kernel(graph: Graph, scope_id: str, family: Family) -> Artifact:
    """Load a scope's agent or world kernel (a recall)."""
    return await load(graph, scope_id, await kernel_id(graph, scope_id, family), [family])


# A scope's kernels are created with it and never replaced, so their ids are safe to remember: after the first
# look-up a kernel operation is one round trip. Bounded; a deleted scope's entry only leads to a 404 later.
_KERNEL_IDS: dict[str, tuple[str, str]] = {}
_KERNEL_IDS_MAX = 10_000


async def kernel_id(graph: Graph, scope_id: str, family: Family) -> str:
    ids = _KERNEL_IDS.get(scope_id)
    if ids is None:
        from service.scopes import get_scope

        scope = await get_scope(graph, scope_id)
        ids = (str(scope["agent_kernel_id"]), str(scope["world_kernel_id"]))
        if len(_KERNEL_IDS) >= _KERNEL_IDS_MAX:
            _KERNEL_IDS.pop(next(iter(_KERNEL_IDS)))
        _KERNEL_IDS[scope_id] = ids
    return ids[0] if family is Family.agent_kernel else ids[1]


async def delete(graph: Graph, scope_id: str, id: str, families: list[Family], *, detach: bool,
                 reason: str | None, actor: str) -> list[str]:
    """Explicit destructive delete; returns the dependents left pointing at the tombstone."""
    rec = await graph.write(repo.delete, scope_id=scope_id, id=id,
                            families=[f.value for f in families] + [f.value for f in KERNELS], detach=detach,
                            now=utcnow(), actor=actor, reason=reason or "explicit delete", event_id=new_id())
    if not rec["found"]:
        tomb = await graph.read(repo.get, scope_id=scope_id, id=id)
        if tomb["tombstone"] is not None and tomb["tombstone"]["family"] in [f.value for f in families]:
            raise NotFound(f"{id} was already removed", code="artifact_removed")
        raise _not_found(families[0], id)
    if rec["family"] in {f.value for f in KERNELS}:
        raise Conflict("kernels are core truth: they go only with their scope", code="kernel_not_deletable")
    if not rec["deleted"]:
        raise Conflict(f"{len(rec['dependents'])} active artifact(s) depend on {id}; delete with detach=true to "
                       "leave them pointing at its tombstone", code="has_dependents",
                       details={"dependents": rec["dependents"]})
    return list(rec["dependents"])


async def history(graph: Graph, scope_id: str, id: str, families: list[Family]) -> list[dict[str, Any]]:
    items = await graph.read(repo.history, scope_id=scope_id, id=id, families=[f.value for f in families])
    if not items:
        # Every artifact has at least its revision 1 and save event; nothing means not here.
        raise _not_found(families[0], id)
    return items


async def view(graph: Graph, scope_id: str, id: str, families: list[Family], name: str) -> dict[str, Any]:
    if name not in VIEWS:
        raise NotFound(f"no view {name!r}; views are {', '.join(VIEWS)}", code="unknown_view")
    if name == "cleanup":
        # The cleanup view is the digest's typed explanation, confined to the caller's scope and family.
        try:
            why = await explain(graph, id)
        except NotFound:
            raise _not_found(families[0], id) from None
        if why.scope_id != scope_id or why.family not in {f.value for f in families}:
            raise _not_found(families[0], id)
        return why.model_dump(mode="json", exclude={"id"})
    out = await graph.read(repo.view, name=name, scope_id=scope_id, id=id, families=[f.value for f in families])
    if out is None:
        raise _not_found(families[0], id)
    return out


async def create_edge(graph: Graph, scope_id: str, *, type: EdgeType, from_id: str, to_id: str,
                      relation: str | None) -> dict[str, Any]:
    if (type is EdgeType.RELATES_TO) != (relation is not None):
        raise Invalid("`relation` is required with RELATES_TO and only there", code="invalid_relation",
                      details={"field": "relation"})
    if from_id == to_id:
        raise Invalid("an artifact cannot reference itself", code="self_reference", details={"field": "to_id"})
    row = await graph.write(repo.create_edge, scope_id=scope_id, type=type, from_id=from_id, to_id=to_id,
                            relation=relation)
    if row is None:
        raise NotFound("both ends must be artifacts of this scope (not working state)", code="not_found")
    return row


async def delete_edge(graph: Graph, scope_id: str, *, type: EdgeType, from_id: str, to_id: str,
                      relation: str | None) -> None:
    n = await graph.write(repo.delete_edge, scope_id=scope_id, type=type, from_id=from_id, to_id=to_id,
                          relation=relation)
    if n == 0:
        raise NotFound("no such relationship in this scope", code="not_found")


async def clear_working_state(graph: Graph, scope_id: str, *, actor: str) -> int:
    n = await graph.write(repo.clear_working_state, scope_id=scope_id, now=utcnow(), actor=actor,
                          event_id=new_id())
    if n is None:
        raise _scope_missing(scope_id)
    return n


async def restore(graph: Graph, scope_id: str, id: str, families: list[Family], *, actor: str,
                  reason: str | None) -> Artifact:
    """Bring an archived artifact back to active (archive is reversible). An event."""
    rec = await graph.write(repo.restore, scope_id=scope_id, id=id, families=[f.value for f in families],
                            now=utcnow(), actor=actor, event_id=new_id(), reason=reason)
    if not rec["found"]:
        raise _not_found(families[0], id)
    if rec["was"] != "archived":
        raise Conflict(f"{id} is {rec['was']}, not archived", code="not_archived")
    return Artifact.from_node(rec["restored"])
