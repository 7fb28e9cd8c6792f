"""What each MCP tool does, on the use cases the HTTP routes call (service/http/routes/): the same use cases,
the same write pipeline, the same public shapes. Tenancy and roles are checked before these run
(service/mcp/server.py); here only the work and the caps that keep an answer small enough for a model.

Caps: list answers (search, recall, history) carry at most `PREVIEW_CHARS` of each long text, flagged
`truncated: true` (`get` answers the whole record); every list has a limit with a hard maximum, and the
ones a caller can page through (history, scopes) answer a `next_cursor`.
"""

from __future__ import annotations

import json
from typing import Any

from cognition.schemas.events import EventPublic
from cognition.schemas.records import History, MemoryCreate, MemoryUpdate
from cognition.schemas.vocabulary import DEFAULT_LIMITS
from graph.errors import Invalid
from graph.model import Artifact, Family
from service.usecases import artifacts as use
from service.usecases import context, keyed, scopes
from service.usecases import events as feed
from service.usecases.access import Principal
from service.usecases.drafts import change_of, draft_of
from service.usecases.runtime import Runtime
from service.usecases.timeview import CURRENT, TimeView
from service.wire import (
    decode_cursor,
    encode_cursor,
    event_cursor,
    event_position,
    invalid_cursor,
    pair_position,
    public,
)

PREVIEW_CHARS = 2000  # per long text field in a list answer
MAX_SEARCH = 25
MAX_PER_ARM = 20
MAX_HISTORY = 50
MAX_SCOPES = 100
MAX_EVENTS = 100
ADVISORY_FAMILIES = [Family.memory, Family.knowledge, Family.skill]  # what get / forget / history / explain reach
_LONG = ("content", "body", "when_to_use")


def record(art: Artifact) -> dict[str, Any]:
    """The record as the HTTP API answers it (cognition/schemas/records.py ArtifactPublic), as JSON."""
    data: dict[str, Any] = public(art).model_dump(mode="json")
    return data


def preview(data: dict[str, Any]) -> dict[str, Any]:
    """A list item: long texts cut to PREVIEW_CHARS (then `truncated: true`; `get` has the whole record)."""
    out = dict(data)
    for key in _LONG:
        text = out.get(key)
        if isinstance(text, str) and len(text) > PREVIEW_CHARS:
            out[key] = text[:PREVIEW_CHARS]
            out["truncated"] = True
    return out


def _offset_cursor(offset: int) -> str:
    return encode_cursor({"o": offset})


def _offset_of(cursor: str | None) -> int:
    if not cursor:
        return 0
    position = decode_cursor(cursor)
    offset = position.get("o") if isinstance(position, dict) else None
    if isinstance(offset, int) and offset >= 0:
        return offset
    raise invalid_cursor()


def _limit(value: int, maximum: int) -> int:
    if not 1 <= value <= maximum:
        raise Invalid(f"limit must be 1–{maximum}", code="validation_error", details={"field": "limit"})
    return value


# ---- the tools' work -----------------------------------------------------------------------------------------

async def save_memory(rt: Runtime, principal: Principal, scope_id: str, body: dict[str, Any],
                      idempotency_key: str | None, key: str | None = None) -> dict[str, Any]:
    memory = MemoryCreate.model_validate(body)  # the HTTP route's own schema: service-owned fields refused
    if key is not None:  # as `PUT …/memories-by-key?key=`: a new record, or a new revision of the key's
        if not 1 <= len(key) <= 512 or any(ord(c) < 32 or ord(c) == 127 for c in key):
            raise Invalid("key: 1–512 characters without control characters", code="validation_error",
                          details={"field": "key"})
        art, created = await keyed.put(rt, scope_id, key, draft_of(memory), actor=principal.key_id,
                                       role=principal.role)
        return {**record(art), "created": created}
    result = await use.save(rt, scope_id, [draft_of(memory)], actor=principal.key_id,
                            idempotency_key=idempotency_key)
    return {**record(result.items[0]), "replayed": result.replayed}


def _view(at: Any) -> dict[str, Any]:
    """The answer's view of time (cognition.schemas.records.TimeView), as JSON."""
    out: dict[str, Any] = json.loads(json.dumps(at.wire(), default=_iso))
    return out


async def recall(rt: Runtime, scope_id: str, *, surface: str, query: str | None,
                 limit_per_arm: int, view: TimeView = CURRENT) -> dict[str, Any]:
    n = _limit(limit_per_arm, MAX_PER_ARM)
    limits = {arm: min(n, default) for arm, default in DEFAULT_LIMITS.items()}
    ctx = await context.assemble(rt, scope_id, surface=surface, query=query, limits=limits, view=view)
    return {"arms": {arm: [preview(record(a)) for a in items] for arm, items in ctx.arms.items()},
            "view": _view(ctx.view)}


async def search(rt: Runtime, scope_id: str, *, query: str, family: Family, kind: str | None, tier: str | None,
                 tag: str | None, include_archived: bool, limit: int, view: TimeView = CURRENT,
                 occurred_after: Any = None, occurred_before: Any = None) -> dict[str, Any]:
    hits, at = await use.search_answer(rt, scope_id, [family], query=query, kind=kind, tier=tier, tag=tag,
                                       include_archived=include_archived, limit=_limit(limit, MAX_SEARCH),
                                       view=view, occurred_after=occurred_after, occurred_before=occurred_before)
    return {"items": [preview({**record(a), "score": s}) for a, s in hits], "view": _view(at)}


async def get(rt: Runtime, scope_id: str, id: str, view: TimeView = CURRENT) -> dict[str, Any]:
    return record(await use.load(rt, scope_id, id, ADVISORY_FAMILIES, view))


async def update_memory(rt: Runtime, principal: Principal, scope_id: str, id: str, revision: int,
                        changes: dict[str, Any]) -> dict[str, Any]:
    body = MemoryUpdate.model_validate(changes)
    if not body.model_fields_set:
        raise Invalid("name at least one field to change", code="validation_error", details={"field": "content"})
    art = await use.update(rt, scope_id, id, [Family.memory], change_of(body, revision), actor=principal.key_id)
    return record(art)


async def forget(rt: Runtime, principal: Principal, scope_id: str, id: str, *, detach: bool,
                 reason: str | None) -> dict[str, Any]:
    if reason is not None and len(reason) > 500:
        raise Invalid("reason: at most 500 characters", code="validation_error", details={"field": "reason"})
    detached = await use.delete(rt, scope_id, id, ADVISORY_FAMILIES, detach=detach, reason=reason,
                                actor=principal.key_id)
    return {"id": id, "status": "removed", "detached": detached}


async def history(rt: Runtime, scope_id: str, id: str, *, cursor: str | None, limit: int,
                  view: TimeView = CURRENT) -> dict[str, Any]:
    n, offset = _limit(limit, MAX_HISTORY), _offset_of(cursor)
    items = await use.history(rt, scope_id, id, ADVISORY_FAMILIES, view)
    shaped = History.model_validate({"items": items[offset:offset + n]}).model_dump(mode="json")["items"]
    page = [preview(i) for i in shaped]
    nxt = _offset_cursor(offset + n) if offset + n < len(items) else None
    return {"items": page, "next_cursor": nxt}


async def explain(rt: Runtime, scope_id: str, id: str) -> dict[str, Any]:
    """The record's cleanup view: the digest's decisions about it, each citing its evidence."""
    why = await use.view(rt, scope_id, id, ADVISORY_FAMILIES, "cleanup")
    # The Browser link is the HTTP route's (it knows where Browser is served); an agent has no use for a null.
    return {"id": id, **{k: v for k, v in why.items() if not (k == "browser_link" and v is None)}}


async def list_scopes(rt: Runtime, principal: Principal, *, cursor: str | None, limit: int) -> dict[str, Any]:
    rows, more = await scopes.list_visible(rt, principal, after=pair_position(cursor) if cursor else None,
                                           limit=_limit(limit, MAX_SCOPES))
    nxt = encode_cursor([rows[-1]["namespace"], rows[-1]["id"]]) if more else None
    return {"key": {"key_id": principal.key_id, "role": principal.role, "namespaces": list(principal.namespaces)},
            "items": json.loads(json.dumps(rows, default=_iso)), "next_cursor": nxt}


async def events(rt: Runtime, scope_id: str, *, cursor: str | None, limit: int) -> dict[str, Any]:
    """The scope's changes after `cursor`, oldest first: the scope's part of its namespace's feed (ids and
    metadata, never content). `next_cursor` goes on from what this call read past, so nothing is seen twice."""
    n = _limit(limit, MAX_EVENTS)
    namespace = await rt.auth.scope_namespace(scope_id)
    if namespace is None:  # deleted since the guard looked
        return {"items": [], "next_cursor": cursor}
    page = await feed.read(rt, namespace, after=event_position(namespace, cursor), limit=feed.MAX_PAGE)
    items: list[dict[str, Any]] = []
    last = event_position(namespace, cursor)
    for row in page.events:
        if len(items) == n:
            break
        last = int(row["position"])
        if row.get("scope_id") == scope_id:
            items.append(EventPublic.model_validate(
                {**row, "cursor": event_cursor(namespace, last)}).model_dump(mode="json", exclude_none=True))
    return {"items": items, "next_cursor": event_cursor(namespace, last)}


def _iso(value: Any) -> str:
    iso = getattr(value, "isoformat", None)
    if callable(iso):
        return str(iso())
    to_native = getattr(value, "to_native", None)
    if callable(to_native):
        return _iso(to_native())
    return str(value)
