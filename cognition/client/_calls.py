"""What each operation sends and how its answer is read, as `Call`s; the sync and async resources run them.
Writes are validated locally with the service's own schemas (a `ValidationFailed` before anything is sent)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Generic, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel, TypeAdapter, ValidationError

from cognition.client import errors
from cognition.client import models as m
from cognition.client._core import Call, as_json, model, nothing, raw_bytes

C = TypeVar("C", bound=BaseModel)
U = TypeVar("U", bound=BaseModel)
P = TypeVar("P", bound=BaseModel)
B = TypeVar("B", bound=BaseModel)


def seg(value: str) -> str:
    """One path segment, percent-encoded (an id can never change the route)."""
    return quote(str(value), safe="")


def build(cls: type[B], record: B | dict[str, Any] | None, fields: dict[str, Any]) -> B:
    """A request body from a model instance or keyword fields, validated with the service's schema."""
    try:
        if isinstance(record, cls):
            return cls.model_validate({**record.model_dump(exclude_unset=True), **fields}) if fields else record
        given: dict[str, Any] = dict(record) if isinstance(record, dict) else {}
        return cls.model_validate({**given, **fields})
    except ValidationError as exc:
        first: dict[str, Any] = dict(exc.errors()[0]) if exc.errors() else {}
        ctx = first.get("ctx") or {}
        field = str(ctx.get("field") or ".".join(str(p) for p in first.get("loc", ())) or "body")
        code = str(ctx["code"]) if isinstance(ctx.get("code"), str) else "validation_error"
        cls_ = errors.BY_CODE.get(code, errors.ValidationFailed)
        raise cls_(f"{field}: {first.get('msg', 'invalid')}", code=code, status=0, details={"field": field}) from exc


def body(value: BaseModel) -> Any:
    return value.model_dump(mode="json", exclude_unset=True)


def if_match(revision: int) -> dict[str, str]:
    return {"If-Match": f'"{int(revision)}"'}


def idempotency(key: str | None) -> dict[str, str]:
    # Made once per save, here: every retry of this Call sends the same key.
    return {"Idempotency-Key": key or f"cog-{uuid.uuid4().hex}"}


def _items(cls: type[P]) -> Any:
    adapter = TypeAdapter(list[cls])  # type: ignore[valid-type]

    def parse(response: httpx.Response) -> list[P]:
        out: list[P] = adapter.validate_python(response.json()["items"])
        return out

    return parse


class FamilyCalls(Generic[C, U, P]):
    """Memories, knowledge pages, skills, working state: the same operations under one scope."""

    def __init__(self, scope_id: str, path: str, create: type[C], update: type[U], public: type[P], *,
                 batch: bool = False, searchable: bool = True, approvable: bool = True, keyed: bool = False) -> None:
        self.scope_id = scope_id
        self.base = f"/v1/scopes/{seg(scope_id)}/{path}"
        self.create, self.update_model, self.public = create, update, public
        self.batch, self.searchable, self.approvable, self.keyed = batch, searchable, approvable, keyed

    def _only(self, ok: bool, what: str) -> None:
        if not ok:
            raise TypeError(f"{self.base.rsplit('/', 1)[-1]} has no {what}")

    def save(self, record: C | dict[str, Any] | None, fields: dict[str, Any], key: str | None) -> Call[P]:
        return Call("POST", self.base, model(self.public), json=body(build(self.create, record, fields)),
                    headers=idempotency(key), safe=True)

    def save_many(self, records: list[C | dict[str, Any]], key: str | None) -> Call[list[P]]:
        self._only(self.batch, "batch save")
        items = [body(build(self.create, r, {})) for r in records]
        return Call("POST", f"{self.base}/batch", _items(self.public), json={"items": items},
                    headers=idempotency(key), safe=True)

    def get(self, id: str, as_of: datetime | None = None, known_at: datetime | None = None) -> Call[P]:
        return Call("GET", f"{self.base}/{seg(id)}", model(self.public), params=_view(as_of, known_at), safe=True)

    def list(self, *, kind: str | None, tier: str | None, status: str | None, tag: str | None,
             created_after: datetime | None, created_before: datetime | None, cursor: str | None,
             limit: int | None, occurred_after: datetime | None = None, occurred_before: datetime | None = None,
             order: str | None = None, as_of: datetime | None = None, known_at: datetime | None = None,
             include_invalid: bool | None = None) -> Call[m.Page]:
        params = {"kind": kind, "tier": tier, "status": status, "tag": tag, "created_after": created_after,
                  "created_before": created_before, "occurred_after": occurred_after,
                  "occurred_before": occurred_before, "order": order, "include_invalid": include_invalid,
                  "cursor": cursor, "limit": limit, **_view(as_of, known_at)}
        return Call("GET", self.base, model(m.Page), params=params, safe=True)

    def search(self, query: str, fields: dict[str, Any]) -> Call[m.SearchResults]:
        self._only(self.searchable, "search")
        req = build(m.SearchRequest, None, {"query": query, **fields})
        return Call("POST", f"{self.base}/search", model(m.SearchResults), json=body(req), safe=True)

    def update(self, id: str, revision: int, changes: U | dict[str, Any] | None, fields: dict[str, Any]) -> Call[P]:
        # Not repeated after an ambiguous failure: a repeat would answer 412 for our own first write.
        return Call("PATCH", f"{self.base}/{seg(id)}", model(self.public),
                    json=body(build(self.update_model, changes, fields)), headers=if_match(revision))

    def delete(self, id: str, detach: bool, reason: str | None) -> Call[m.Deleted]:
        return Call("DELETE", f"{self.base}/{seg(id)}", model(m.Deleted), params={"detach": detach, "reason": reason},
                    safe=True)

    def history(self, id: str, as_of: datetime | None = None, known_at: datetime | None = None) -> Call[m.History]:
        return Call("GET", f"{self.base}/{seg(id)}/history", model(m.History), params=_view(as_of, known_at),
                    safe=True)

    def view(self, id: str, name: str) -> Call[dict[str, Any]]:
        return Call("GET", f"{self.base}/{seg(id)}/views/{seg(name)}", as_json, safe=True)

    def decide(self, id: str, action: str, reason: str | None) -> Call[Any]:
        self._only(self.approvable, action)
        parse = nothing if action == "reject" else model(self.public)
        return Call("POST", f"{self.base}/{seg(id)}/{action}", parse,
                    json={"reason": reason} if reason is not None else None)

    # ---- records named by the caller's key (memories): `{base}-by-key?key=` --------------------------------
    def put_by_key(self, key: str, record: C | dict[str, Any] | None, fields: dict[str, Any]) -> Call[P]:
        # Safe to repeat: a repeat makes one more revision with the same value.
        self._only(self.keyed, "keys")
        return Call("PUT", f"{self.base}-by-key", model(self.public), params={"key": key},
                    json=body(build(self.create, record, fields)), safe=True)

    def get_by_key(self, key: str) -> Call[P]:
        self._only(self.keyed, "keys")
        return Call("GET", f"{self.base}-by-key", model(self.public), params={"key": key}, safe=True)

    def delete_by_key(self, key: str, detach: bool, reason: str | None) -> Call[m.Deleted]:
        self._only(self.keyed, "keys")
        return Call("DELETE", f"{self.base}-by-key", model(m.Deleted),
                    params={"key": key, "detach": detach, "reason": reason}, safe=True)

    def clear(self) -> Call[m.Cleared]:
        self._only(not self.searchable, "clear")
        return Call("DELETE", self.base, model(m.Cleared), safe=True)


def memories(scope_id: str) -> FamilyCalls[m.MemoryCreate, m.MemoryUpdate, m.MemoryPublic]:
    return FamilyCalls(scope_id, "memories", m.MemoryCreate, m.MemoryUpdate, m.MemoryPublic, batch=True, keyed=True)


def knowledge(scope_id: str) -> FamilyCalls[m.KnowledgeCreate, m.KnowledgeUpdate, m.KnowledgePublic]:
    return FamilyCalls(scope_id, "knowledge", m.KnowledgeCreate, m.KnowledgeUpdate, m.KnowledgePublic)


def skills(scope_id: str) -> FamilyCalls[m.SkillCreate, m.SkillUpdate, m.SkillPublic]:
    return FamilyCalls(scope_id, "skills", m.SkillCreate, m.SkillUpdate, m.SkillPublic)


def working_state(scope_id: str) -> FamilyCalls[m.WorkingStateCreate, m.WorkingStateUpdate, m.WorkingStatePublic]:
    return FamilyCalls(scope_id, "working-state", m.WorkingStateCreate, m.WorkingStateUpdate, m.WorkingStatePublic,
                       searchable=False, approvable=False)


# ---- the rest of a scope ------------------------------------------------------------------------------------

def scope_create(namespace: str, cognitive_owner: str, name: str) -> Call[m.ScopePublic]:
    req = build(m.ScopeCreate, None, {"namespace": namespace, "cognitive_owner": cognitive_owner, "name": name})
    return Call("POST", "/v1/scopes", model(m.ScopePublic), json=body(req))


def scope_get(scope_id: str) -> Call[m.ScopePublic]:
    return Call("GET", f"/v1/scopes/{seg(scope_id)}", model(m.ScopePublic), safe=True)


def scope_list(namespace: str, cognitive_owner: str, name_prefix: str | None, cursor: str | None,
               limit: int | None) -> Call[m.ScopePage]:
    params = {"namespace": namespace, "cognitive_owner": cognitive_owner, "name_prefix": name_prefix,
              "cursor": cursor, "limit": limit}
    return Call("GET", "/v1/scopes", model(m.ScopePage), params=params, safe=True)


def scope_delete(scope_id: str) -> Call[m.ScopeDeleted]:
    return Call("DELETE", f"/v1/scopes/{seg(scope_id)}", model(m.ScopeDeleted), safe=True)


def write_policy_get(scope_id: str) -> Call[m.WritePolicy]:
    return Call("GET", f"/v1/scopes/{seg(scope_id)}/write-policy", model(m.WritePolicy), safe=True)


def write_policy_set(scope_id: str, policy: m.WritePolicy | dict[str, Any]) -> Call[m.WritePolicy]:
    return Call("PUT", f"/v1/scopes/{seg(scope_id)}/write-policy", model(m.WritePolicy),
                json=body(build(m.WritePolicy, policy, {})), safe=True)


def kernel_get(scope_id: str, which: str) -> Call[m.KernelPublic]:
    return Call("GET", f"/v1/scopes/{seg(scope_id)}/kernels/{seg(which)}", model(m.KernelPublic), safe=True)


def kernel_put(scope_id: str, which: str, revision: int, fields: dict[str, Any]) -> Call[m.KernelPublic]:
    return Call("PUT", f"/v1/scopes/{seg(scope_id)}/kernels/{seg(which)}", model(m.KernelPublic),
                json=body(build(m.KernelUpdate, None, fields)), headers=if_match(revision))


def kernel_history(scope_id: str, which: str) -> Call[m.History]:
    return Call("GET", f"/v1/scopes/{seg(scope_id)}/kernels/{seg(which)}/history", model(m.History), safe=True)


def edge_create(scope_id: str, fields: dict[str, Any]) -> Call[m.EdgePublic]:
    return Call("POST", f"/v1/scopes/{seg(scope_id)}/edges", model(m.EdgePublic),
                json=body(build(m.EdgeCreate, None, fields)))


def edge_delete(scope_id: str, params: dict[str, Any]) -> Call[None]:
    return Call("DELETE", f"/v1/scopes/{seg(scope_id)}/edges", nothing, params=params, safe=True)


def _view(as_of: datetime | None, known_at: datetime | None) -> dict[str, Any]:
    """A read's view of time as query parameters (left out when not asked for)."""
    return {k: v for k, v in (("as_of", as_of), ("known_at", known_at)) if v is not None}


def context(scope_id: str, fields: dict[str, Any]) -> Call[m.ContextResponse]:
    return Call("POST", f"/v1/scopes/{seg(scope_id)}/context", model(m.ContextResponse),
                json=body(build(m.ContextRequest, None, fields)), safe=True)


def export_graph(scope_id: str, params: dict[str, Any]) -> Call[bytes]:
    return Call("GET", f"/v1/scopes/{seg(scope_id)}/graph", raw_bytes, params=params, safe=True)


def digest_run(fields: dict[str, Any]) -> Call[m.PassOutcome]:
    return Call("POST", "/v1/digest/passes", model(m.PassOutcome), json=body(build(m.DigestPassCreate, None, fields)))


def digest_get(pass_id: str) -> Call[m.PassOutcome]:
    return Call("GET", f"/v1/digest/passes/{seg(pass_id)}", model(m.PassOutcome), safe=True)


def gc_run(fields: dict[str, Any]) -> Call[m.PassOutcome]:
    return Call("POST", "/v1/gc/runs", model(m.PassOutcome), json=body(build(m.GCRunCreate, None, fields)))


def whoami() -> Call[m.WhoAmI]:
    return Call("GET", "/v1/whoami", model(m.WhoAmI), safe=True)


# ---- the event feed and webhooks ------------------------------------------------------------------------------

def events_page(namespace: str, after: str | None, limit: int | None) -> Call[m.EventPage]:
    return Call("GET", "/v1/events", model(m.EventPage), params={"namespace": namespace, "after": after,
                                                                  "limit": limit}, safe=True)


def webhook_create(namespace: str, url: str, kinds: list[str] | None, after: str | None) -> Call[m.WebhookCreated]:
    req = build(m.WebhookCreate, None, {"namespace": namespace, "url": url,
                                        **({"kinds": kinds} if kinds else {}), **({"after": after} if after else {})})
    return Call("POST", "/v1/webhooks", model(m.WebhookCreated), json=body(req))


def webhook_list() -> Call[m.WebhookList]:
    return Call("GET", "/v1/webhooks", model(m.WebhookList), safe=True)


def webhook_get(webhook_id: str) -> Call[m.WebhookPublic]:
    return Call("GET", f"/v1/webhooks/{seg(webhook_id)}", model(m.WebhookPublic), safe=True)


def webhook_delete(webhook_id: str) -> Call[m.WebhookPublic]:
    return Call("DELETE", f"/v1/webhooks/{seg(webhook_id)}", model(m.WebhookPublic), safe=True)


def webhook_replay(webhook_id: str, after: str) -> Call[m.WebhookPublic]:
    return Call("POST", f"/v1/webhooks/{seg(webhook_id)}/replay", model(m.WebhookPublic),
                json=body(build(m.WebhookReplay, None, {"after": after})), safe=True)


def webhook_deliveries(webhook_id: str, limit: int | None) -> Call[m.DeliveryList]:
    return Call("GET", f"/v1/webhooks/{seg(webhook_id)}/deliveries", model(m.DeliveryList),
                params={"limit": limit}, safe=True)
