# Generated from cognition/client/aio.py by scripts/client_sync.py (`make client-sync`): do not edit.
"""The client's resources, written once: `AsyncCognition` in cognition/client/aio.py, by hand, and `Cognition` in
cognition/client/sync.py, generated from it by `make client-sync` (scripts/client_sync.py: `async` and `await`
dropped, the `Async` names made plain). Edit aio.py, then regenerate."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from types import TracebackType
from typing import Any, Generic, Literal

import httpx

from cognition.client import _calls as calls
from cognition.client import models as m
from cognition.client._calls import C, P, U
from cognition.client._core import SyncCore
from cognition.client._retry import RetryPolicy

Which = Literal["agent", "world"]


class Family(Generic[C, U, P]):
    """The records of one family in one scope: `client.memories(scope_id)`, `.knowledge(…)`, `.skills(…)`,
    `.working_state(…)`."""

    def __init__(self, core: SyncCore, calls_: calls.FamilyCalls[C, U, P]) -> None:
        self._core, self._calls = core, calls_

    def save(self, record: C | dict[str, Any] | None = None, /, *, idempotency_key: str | None = None,
             **fields: Any) -> P:
        """Save one record (through the write pipeline). Retried safely: one Idempotency-Key per call."""
        return self._core.run(self._calls.save(record, fields, idempotency_key))

    def save_many(self, records: list[C | dict[str, Any]], *, idempotency_key: str | None = None) -> list[P]:
        """Save up to 1000 records in one transaction (memories only)."""
        return self._core.run(self._calls.save_many(records, idempotency_key))

    def get(self, id: str, *, as_of: datetime | None = None, known_at: datetime | None = None) -> P:
        """Load by id (counts as a recall). `known_at`: as the store held it then (not a recall); `as_of`: only if it
        was valid then (NotFound `not_valid_at` otherwise)."""
        return self._core.run(self._calls.get(id, as_of, known_at))

    def list(self, *, kind: str | None = None, tier: str | None = None, status: str | None = None,
             tag: str | None = None, created_after: datetime | None = None, created_before: datetime | None = None,
             cursor: str | None = None, limit: int | None = None, occurred_after: datetime | None = None,
             occurred_before: datetime | None = None, order: Literal["created", "occurred"] | None = None,
             as_of: datetime | None = None, known_at: datetime | None = None,
             include_invalid: bool | None = None) -> m.Page:
        """One page in a stable order (created_at or occurred_at, then id); `next_cursor` for the next one. Current
        truth unless `as_of`, `known_at` or `include_invalid` ask for another view (the page's `view` says which)."""
        return self._core.run(self._calls.list(kind=kind, tier=tier, status=status, tag=tag,
                                               created_after=created_after, created_before=created_before,
                                               cursor=cursor, limit=limit, occurred_after=occurred_after,
                                               occurred_before=occurred_before, order=order, as_of=as_of,
                                               known_at=known_at, include_invalid=include_invalid))

    def iterate(self, *, page_size: int = 100, **filters: Any) -> Iterator[Any]:
        """Every record under the filters, page after page."""
        cursor = None
        while True:
            page = self.list(cursor=cursor, limit=page_size, **filters)
            for item in page.items:
                yield item
            if not page.next_cursor:
                return
            cursor = page.next_cursor

    def search(self, query: str, **fields: Any) -> m.SearchResults:
        """Explicit search (kind, tier, tag, include_archived, limit; occurred_after / occurred_before; as_of,
        known_at, include_invalid and now for another view of time): current truth by default."""
        return self._core.run(self._calls.search(query, fields))

    def update(self, id: str, changes: U | dict[str, Any] | None = None, /, *, revision: int, **fields: Any) -> P:
        """A new revision; `revision` is the one you read (RevisionMismatch when it moved on)."""
        return self._core.run(self._calls.update(id, revision, changes, fields))

    def delete(self, id: str, *, detach: bool = False, reason: str | None = None) -> m.Deleted:
        """Explicit, destructive delete (HasDependents unless `detach`)."""
        return self._core.run(self._calls.delete(id, detach, reason))

    def history(self, id: str, *, as_of: datetime | None = None, known_at: datetime | None = None
                ) -> m.History:
        """Revisions (each with the state it recorded) and events, oldest first; as the store held them at
        `known_at`; with `as_of`, only the revisions valid then."""
        return self._core.run(self._calls.history(id, as_of, known_at))

    def view(self, id: str, name: Literal["support", "lineage", "invalidation", "cleanup"]) -> dict[str, Any]:
        """A derived view; `cleanup` explains why the digest archived or removed it."""
        return self._core.run(self._calls.view(id, name))

    def approve(self, id: str, *, reason: str | None = None) -> P:
        out: P = self._core.run(self._calls.decide(id, "approve", reason))
        return out

    def reject(self, id: str, *, reason: str | None = None) -> None:
        self._core.run(self._calls.decide(id, "reject", reason))

    def restore(self, id: str, *, reason: str | None = None) -> P:
        out: P = self._core.run(self._calls.decide(id, "restore", reason))
        return out

    def put_by_key(self, key: str, record: C | dict[str, Any] | None = None, /, **fields: Any) -> P:
        """Memories: save the record your `key` names — created the first time, a new revision of it after
        (an upsert: one record per key and scope). Through the write pipeline like every save."""
        return self._core.run(self._calls.put_by_key(key, record, fields))

    def get_by_key(self, key: str) -> P:
        """Memories: load the record your `key` names (a recall); NotFound when it names none."""
        return self._core.run(self._calls.get_by_key(key))

    def delete_by_key(self, key: str, *, detach: bool = False, reason: str | None = None) -> m.Deleted:
        """Memories: delete the record your `key` names (the key can then name a new record)."""
        return self._core.run(self._calls.delete_by_key(key, detach, reason))

    def clear(self) -> m.Cleared:
        """Working state only: clear the scope's working state."""
        return self._core.run(self._calls.clear())


class Scopes:
    def __init__(self, core: SyncCore) -> None:
        self._core = core

    def create(self, namespace: str, cognitive_owner: str, name: str) -> m.ScopePublic:
        return self._core.run(calls.scope_create(namespace, cognitive_owner, name))

    def get(self, scope_id: str) -> m.ScopePublic:
        return self._core.run(calls.scope_get(scope_id))

    def delete(self, scope_id: str) -> m.ScopeDeleted:
        return self._core.run(calls.scope_delete(scope_id))

    def list(self, namespace: str, cognitive_owner: str, *, name_prefix: str | None = None,
             cursor: str | None = None, limit: int | None = None) -> m.ScopePage:
        """One page of a partition's scopes (those whose name starts with `name_prefix`), in name order."""
        return self._core.run(calls.scope_list(namespace, cognitive_owner, name_prefix, cursor, limit))

    def iterate(self, namespace: str, cognitive_owner: str, *, name_prefix: str | None = None,
                page_size: int = 100) -> Iterator[m.ScopeListed]:
        """Every scope of a partition whose name starts with `name_prefix`, page after page."""
        cursor = None
        while True:
            page = self.list(namespace, cognitive_owner, name_prefix=name_prefix, cursor=cursor,
                                   limit=page_size)
            for item in page.items:
                yield item
            if not page.next_cursor:
                return
            cursor = page.next_cursor

    def write_policy(self, scope_id: str) -> m.WritePolicy:
        return self._core.run(calls.write_policy_get(scope_id))

    def set_write_policy(self, scope_id: str, policy: m.WritePolicy | dict[str, Any]) -> m.WritePolicy:
        return self._core.run(calls.write_policy_set(scope_id, policy))


class Kernels:
    def __init__(self, core: SyncCore, scope_id: str) -> None:
        self._core, self._scope = core, scope_id

    def get(self, which: Which) -> m.KernelPublic:
        return self._core.run(calls.kernel_get(self._scope, which))

    def update(self, which: Which, *, revision: int, content: str, metadata: dict[str, Any] | None = None
               ) -> m.KernelPublic:
        fields: dict[str, Any] = {"content": content, **({"metadata": metadata} if metadata is not None else {})}
        return self._core.run(calls.kernel_put(self._scope, which, revision, fields))

    def history(self, which: Which) -> m.History:
        return self._core.run(calls.kernel_history(self._scope, which))


class Edges:
    def __init__(self, core: SyncCore, scope_id: str) -> None:
        self._core, self._scope = core, scope_id

    def create(self, type: str, from_id: str, to_id: str, *, relation: str | None = None) -> m.EdgePublic:
        fields: dict[str, Any] = {"type": type, "from_id": from_id, "to_id": to_id}
        if relation is not None:
            fields["relation"] = relation
        return self._core.run(calls.edge_create(self._scope, fields))

    def delete(self, type: str, from_id: str, to_id: str, *, relation: str | None = None) -> None:
        self._core.run(calls.edge_delete(self._scope, {"type": type, "from_id": from_id, "to_id": to_id,
                                                       "relation": relation}))


class Digest:
    def __init__(self, core: SyncCore) -> None:
        self._core = core

    def run(self, namespace: str, cognitive_owner: str, *, phase: Literal["archive", "remove"] = "archive",
            dry_run: bool = False, as_of: datetime | None = None) -> m.PassOutcome:
        fields: dict[str, Any] = {"namespace": namespace, "cognitive_owner": cognitive_owner, "phases": [phase],
                                  "dry_run": dry_run, **({"as_of": as_of} if as_of else {})}
        return self._core.run(calls.digest_run(fields))

    def get(self, pass_id: str) -> m.PassOutcome:
        return self._core.run(calls.digest_get(pass_id))

    def gc(self, namespace: str, cognitive_owner: str, *, phase: Literal["archive", "remove"] = "archive",
           max_entries: int | None = None, dry_run: bool = False) -> m.PassOutcome:
        fields: dict[str, Any] = {"namespace": namespace, "cognitive_owner": cognitive_owner, "phases": [phase],
                                  "dry_run": dry_run, **({"max_entries": max_entries} if max_entries is not None
                                                         else {})}
        return self._core.run(calls.gc_run(fields))


class Events:
    """A namespace's event feed: what changed, in order, each change once (ids and metadata, never content)."""

    def __init__(self, core: SyncCore) -> None:
        self._core = core

    def page(self, namespace: str, *, after: str | None = None, limit: int | None = None) -> m.EventPage:
        """One page of the events after the cursor `after` (from the first without one); `next` goes on."""
        return self._core.run(calls.events_page(namespace, after, limit))

    def iterate(self, namespace: str, *, after: str | None = None,
                page_size: int = 100) -> Iterator[m.EventPublic]:
        """Every event after `after` that exists now, page after page. Keep the last event's `cursor` to resume."""
        while True:
            page = self.page(namespace, after=after, limit=page_size)
            for event in page.items:
                yield event
            if not page.items:
                return
            after = page.next

    def follow(self, namespace: str, *, after: str | None = None, page_size: int = 100,
               poll: float = 1.0) -> Iterator[m.EventPublic]:
        """The events after `after`, then each new one as it happens, waiting `poll` seconds while nothing is new;
        never ends (break out of the loop). Keep the last event's `cursor` to resume after a restart."""
        while True:
            page = self.page(namespace, after=after, limit=page_size)
            for event in page.items:
                yield event
            after = page.next
            if not page.more:
                self._core.pause(poll)


class Webhooks:
    """Webhooks (operators): endpoints that receive a namespace's events, signed (Standard Webhooks)."""

    def __init__(self, core: SyncCore) -> None:
        self._core = core

    def create(self, namespace: str, url: str, *, kinds: list[str] | None = None,
               after: str | None = None) -> m.WebhookCreated:
        """Register `url` for the namespace's events (of `kinds`, or all), from now on or after the cursor
        `after`. The answer's `secret` is shown this once."""
        return self._core.run(calls.webhook_create(namespace, url, kinds, after))

    def list(self) -> m.WebhookList:
        return self._core.run(calls.webhook_list())

    def get(self, webhook_id: str) -> m.WebhookPublic:
        return self._core.run(calls.webhook_get(webhook_id))

    def delete(self, webhook_id: str) -> m.WebhookPublic:
        return self._core.run(calls.webhook_delete(webhook_id))

    def replay(self, webhook_id: str, after: str) -> m.WebhookPublic:
        """Deliver every event after the cursor `after` again, in order."""
        return self._core.run(calls.webhook_replay(webhook_id, after))

    def deliveries(self, webhook_id: str, *, limit: int | None = None) -> m.DeliveryList:
        """The webhook's delivery attempts, newest first."""
        return self._core.run(calls.webhook_deliveries(webhook_id, limit))


class Cognition:
    """The client: `with Cognition(…) as client:`, or `async with AsyncCognition(…) as client:`. No request is
    made until you call an operation.

    `(base_url, api_key)` both default to `COGNITION_URL` (else http://127.0.0.1:8080) and `COGNITION_API_KEY`.
    Requests the service refuses with 429 / 503 are retried (honouring `Retry-After`), as are broken connections
    for requests safe to repeat (see `cognition/client/_retry.py`); `max_retries=0` turns retries off.
    `transport` is handed to httpx (a transport with retries of its own, say, or a proxy).
    """

    def __init__(self, base_url: str | None = None, api_key: str | None = None, *, timeout: float = 30.0,
                 max_retries: int = 3, backoff: float = 0.25, max_backoff: float = 8.0,
                 max_retry_wait: float = 60.0, headers: dict[str, str] | None = None,
                 transport: httpx.BaseTransport | None = None) -> None:
        policy = RetryPolicy(max_retries=max_retries, backoff=backoff, max_backoff=max_backoff,
                             max_retry_wait=max_retry_wait)
        self._core = SyncCore(base_url, api_key, timeout=timeout, policy=policy, headers=headers,
                              transport=transport)
        self.scopes = Scopes(self._core)
        self.digest = Digest(self._core)
        self.events = Events(self._core)
        self.webhooks = Webhooks(self._core)

    @property
    def base_url(self) -> str:
        return self._core.base_url

    @property
    def bookmark(self) -> str | None:
        """The bookmark of the newest write this client made (sent on each request: read-your-writes on any
        replica); None before its first write."""
        return self._core.bookmark.value

    def memories(self, scope_id: str) -> Family[m.MemoryCreate, m.MemoryUpdate, m.MemoryPublic]:
        return Family(self._core, calls.memories(scope_id))

    def knowledge(self, scope_id: str) -> Family[m.KnowledgeCreate, m.KnowledgeUpdate, m.KnowledgePublic]:
        return Family(self._core, calls.knowledge(scope_id))

    def skills(self, scope_id: str) -> Family[m.SkillCreate, m.SkillUpdate, m.SkillPublic]:
        return Family(self._core, calls.skills(scope_id))

    def working_state(self, scope_id: str) -> Family[m.WorkingStateCreate, m.WorkingStateUpdate,
                                                      m.WorkingStatePublic]:
        return Family(self._core, calls.working_state(scope_id))

    def kernels(self, scope_id: str) -> Kernels:
        return Kernels(self._core, scope_id)

    def edges(self, scope_id: str) -> Edges:
        return Edges(self._core, scope_id)

    def context(self, scope_id: str, surface: Literal["eager", "lazy", "cold_start", "all"] = "all", *,
                query: str | None = None, limits: dict[str, int] | None = None, as_of: datetime | None = None,
                known_at: datetime | None = None, now: datetime | None = None) -> m.ContextResponse:
        """The recall surface's arms (each row passed RecallQualityOK and counts as a recall): what is valid now, or
        at `as_of`; from the store as it was at `known_at` (not a recall); `now` is the question's own date."""
        fields: dict[str, Any] = {"surface": surface, **({"query": query} if query is not None else {}),
                                  **({"limits": limits} if limits else {}),
                                  **{k: v for k, v in (("as_of", as_of), ("known_at", known_at), ("now", now))
                                     if v is not None}}
        return self._core.run(calls.context(scope_id, fields))

    def search(self, scope_id: str, query: str, **fields: Any) -> m.SearchResults:
        """Explicit search over the scope's memories (`client.knowledge(id).search(…)` for pages)."""
        return self.memories(scope_id).search(query, **fields)

    def export_graph(self, scope_id: str, view: Literal["lineage", "refgraph", "decisions"] = "refgraph",
                     format: Literal["graphml", "node-link"] = "graphml", *, max_nodes: int | None = None,
                     content: bool = False) -> bytes:
        """The scope's graph as GraphML or node-link JSON bytes (see `graph()` for a networkx graph)."""
        params = {"view": view, "format": format, "max_nodes": max_nodes, "content": content}
        return self._core.run(calls.export_graph(scope_id, params))

    def graph(self, scope_id: str, view: Literal["lineage", "refgraph", "decisions"] = "refgraph", *,
              max_nodes: int | None = None, content: bool = False) -> Any:
        """The scope's graph as a `networkx.MultiDiGraph` (node-link JSON underneath)."""
        import json

        import networkx as nx

        data = self.export_graph(scope_id, view, "node-link", max_nodes=max_nodes, content=content)
        return nx.node_link_graph(json.loads(data), edges="edges")

    def whoami(self) -> m.WhoAmI:
        return self._core.run(calls.whoami())

    def close(self) -> None:
        self._core.close()

    def __enter__(self) -> Cognition:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        self.close()
