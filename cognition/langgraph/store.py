"""`CognitionStore`: LangGraph's long-term memory interface (`langgraph.store.base.BaseStore`) on the Cognition
service, through the Python client (`pip install 'cognition[langgraph]'`). Every LangGraph or LangMem agent that
takes a store gets the service's screened writes, tenant isolation, revisions, digest and explanations.

The mapping (docs/langgraph.md):
- the store is made for one partition, `(namespace, owner)`; a LangGraph namespace tuple is one scope of it, named
  `scope_prefix` + the labels joined by "." (LangGraph refuses "." inside a label, so the name reads back);
- a key is one memory with that key in the scope (`PUT …/memories-by-key?key=`): a put with the same key makes a
  new revision of it, never a second record; `value=None` deletes it (a tombstone, the key free again);
- a value is a memory of the store's `kind` whose tier follows the TTL; the JSON is the record's `metadata.value`,
  and the record's `content` (what search and the gates read) is the text at the `index` fields (by default the whole
  value: its string leaves) — "∅" when nothing is indexed;
- get answers active and pending records (a pending one as a `CognitionItem` whose `status` says so); search sees
  what the service's own list and search see (active records); list_namespaces the namespaces holding an active or
  pending record.

A write the gates refuse raises the client's typed error (`ThreatDetected`, `ContentRejected`, …: nothing was
stored). A write the learned detector quarantines is stored `pending`; the batch then raises `WriteQuarantined`
(`on_quarantine="raise"`, the default) after running every op, or warns (`"warn"`).

Both `batch` and `abatch` run one description of each operation (cognition/langgraph/drive.py)."""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Iterable
from datetime import datetime
from typing import Any, Literal

from langgraph.store.base import (
    BaseStore,
    GetOp,
    IndexConfig,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
    get_text_at_path,
    tokenize_path,
)

from cognition.client import _calls as calls
from cognition.client import errors
from cognition.client import models as m
from cognition.client.aio import AsyncCognition
from cognition.client.sync import Cognition
from cognition.langgraph.drive import Parallel, Plan, drive_async, drive_sync
from cognition.langgraph.mapping import (
    CONTROL,
    MAX_KEY,
    MAX_SCOPE_NAME,
    UNINDEXED,
    Namespace,
    does_match,
    literal_head,
    matches,
    search_item,
    subject,
    text_leaves,
    tier_for_ttl,
    valid_key,
    validate,
    value_of,
)

SEARCH_FETCH = 100  # the service's search limit: a query ranks at most this many hits a namespace
PAGE = 500  # the service's list limit


class CognitionItem(Item):
    """An `Item` from `get`, with what the service knows of the record: its id, revision and status (`pending` for
    a record awaiting approval or quarantined, then `hold_reason` says why)."""

    __slots__ = ("record_id", "revision", "status", "hold_reason")

    def __init__(self, *, record: m.MemoryPublic, namespace: Namespace, value: dict[str, Any]) -> None:
        super().__init__(value=value, key=record.key or "", namespace=namespace, created_at=record.created_at,
                         updated_at=record.updated_at)
        self.record_id = record.id
        self.revision = record.revision
        self.status = record.status
        self.hold_reason = record.hold_reason


class WriteQuarantined(errors.CognitionClientError):
    """Raised by a batch (after running all of it) that stored puts `pending` because the learned injection detector
    was unsure of them: they stay invisible to search until an operator approves them. `records` are the held
    records (`hold_reason`, `hold_score`); `results` the batch's results."""

    def __init__(self, records: list[tuple[Namespace, m.MemoryPublic]], results: list[Result]) -> None:
        keys = ", ".join(f"{ns}/{r.key}" for ns, r in records)
        super().__init__(f"{len(records)} put(s) quarantined pending approval ({keys}): "
                         f"{records[0][1].hold_reason}")
        self.records = records
        self.results = results


class CognitionStore(BaseStore):
    """A LangGraph `BaseStore` on the Cognition service, for one partition `(namespace, owner)`.

    ```python
    from cognition.langgraph import CognitionStore

    store = CognitionStore(url="http://127.0.0.1:8080", api_key="cog_…", namespace="acme", owner="alice")
    store.put(("memories", "alice"), "tea", {"text": "prefers green tea"})
    store.search(("memories",), query="tea")
    ```

    `client` / `aclient` (a `Cognition` / `AsyncCognition`) may be given instead of `url` and `api_key`: `batch`
    runs on the sync client and `abatch` on the async one (on the sync one in a thread when only it is given).
    `index`: LangGraph's index config; only `fields` is read (the service ranks with its own full-text index and,
    when configured, its own embedder). `kind`: the kind of every record. `ttl`: LangGraph's TTL config (its
    `default_ttl` picks the tier). `scope_prefix` starts the name of every scope the store makes."""

    supports_ttl = True

    def __init__(self, *, namespace: str, owner: str, url: str | None = None, api_key: str | None = None,
                 client: Cognition | None = None, aclient: AsyncCognition | None = None,
                 index: IndexConfig | None = None, kind: str = "semantic", ttl: TTLConfig | None = None,
                 scope_prefix: str = "langgraph:", on_quarantine: Literal["raise", "warn"] = "raise") -> None:
        self.namespace, self.owner, self.kind, self.scope_prefix = namespace, owner, kind, scope_prefix
        self.on_quarantine = on_quarantine
        self.ttl_config = ttl
        fields = (index or {}).get("fields") or ["$"]
        self.index_fields: list[tuple[str, str | list[str]]] = [(f, f if f == "$" else tokenize_path(f))
                                                                 for f in fields]
        if client is None and aclient is None:
            client, aclient = Cognition(url, api_key), AsyncCognition(url, api_key)
        self.client, self.aclient = client, aclient
        self._scopes: dict[Namespace, str] = {}  # namespace → scope id; scopes are never renamed

    # ---- BaseStore ---------------------------------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        if self.client is None:
            raise RuntimeError("this CognitionStore has only an async client: use the async methods (aget, aput, …)")
        run = self.client._core.run  # the client's own request loop (retries, bookmarks, typed errors)
        return drive_sync(self._batch(list(ops)), run)

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        if self.aclient is None:
            return await asyncio.to_thread(self.batch, list(ops))
        return await drive_async(self._batch(list(ops)), self.aclient._core.run)

    def close(self) -> None:
        if self.client is not None:
            self.client.close()

    async def aclose(self) -> None:
        if self.aclient is not None:
            await self.aclient.close()

    # ---- the plans ---------------------------------------------------------------------------------------------

    def _batch(self, ops: list[Op]) -> Plan[list[Result]]:
        """Ops run in order (a get after a put of the same batch sees it); the first error stops the batch."""
        results: list[Result] = []
        held: list[tuple[Namespace, m.MemoryPublic]] = []
        for op in ops:
            validate(op)
            if isinstance(op, GetOp):
                results.append((yield from self._get(op)))
            elif isinstance(op, PutOp):
                record = yield from self._put(op)
                if record is not None and record.status == "pending" and record.hold_reason:
                    held.append((op.namespace, record))
                results.append(None)
            elif isinstance(op, SearchOp):
                results.append((yield from self._search(op)))
            elif isinstance(op, ListNamespacesOp):
                results.append((yield from self._list_namespaces(op)))
            else:
                raise ValueError(f"unknown operation {type(op).__name__}")
        if held:
            if self.on_quarantine == "raise":
                raise WriteQuarantined(held, results)
            warnings.warn(str(WriteQuarantined(held, results)), stacklevel=2)
        return results

    def _get(self, op: GetOp) -> Plan[Item | None]:
        scope_id = yield from self._scope(op.namespace, create=False)
        if scope_id is None or not valid_key(op.key):
            return None
        try:
            record = yield calls.memories(scope_id).get_by_key(op.key)
        except errors.NotFound:
            return None
        if record.status not in ("active", "pending"):  # archived by the digest or GC: expired for LangGraph
            return None
        return CognitionItem(record=record, namespace=op.namespace, value=value_of(record))

    def _put(self, op: PutOp) -> Plan[m.MemoryPublic | None]:
        if op.value is None:
            yield from self._delete(op.namespace, op.key)
            return None
        self._check_put(op.namespace, op.key)
        body = self._record(op)
        for attempt in range(2):
            scope_id = yield from self._scope(op.namespace, create=True)
            assert scope_id is not None
            try:
                return (yield calls.memories(scope_id).put_by_key(op.key, None, body))  # type: ignore[no-any-return]
            except errors.NotFound as exc:  # the scope was deleted since it was cached: find or make it again
                self._scopes.pop(op.namespace, None)
                if attempt or exc.code != "scope_not_found":
                    raise
        raise AssertionError("unreachable")

    def _delete(self, namespace: Namespace, key: str) -> Plan[None]:
        scope_id = yield from self._scope(namespace, create=False)
        if scope_id is None or not valid_key(key):
            return
        try:
            yield calls.memories(scope_id).delete_by_key(key, True, "deleted through the LangGraph store")
        except errors.NotFound:
            return  # deleting what is not there is nothing, as in LangGraph

    def _search(self, op: SearchOp) -> Plan[list[SearchItem]]:
        scopes = yield from self._keyed_scopes(op.namespace_prefix)
        if op.limit <= 0 or not scopes:
            return []
        if op.query:
            return (yield from self._query(op, scopes))
        # In order: namespaces by their first put, then records by their first put (the service's list order);
        # only as many pages as the offset and limit need.
        out: list[SearchItem] = []
        skip = op.offset
        for ns, scope_id in scopes:
            cursor = None
            while True:
                page = yield calls.memories(scope_id).list(kind=None, tier=None, status="active", tag=None,
                                                           created_after=None, created_before=None,
                                                           cursor=cursor, limit=PAGE)
                for record in page.items:
                    value = value_of(record)
                    if record.key is None or not matches(value, op.filter):
                        continue
                    if skip:
                        skip -= 1
                        continue
                    out.append(search_item(record, ns, value, None))
                    if len(out) == op.limit:
                        return out
                cursor = page.next_cursor
                if not cursor:
                    break
        return out

    def _query(self, op: SearchOp, scopes: list[tuple[Namespace, str]]) -> Plan[list[SearchItem]]:
        """Each namespace's best hits (the service's hybrid ranking, at most SEARCH_FETCH a namespace), filtered,
        then ordered by score across namespaces (ties: namespace, key)."""
        query = op.query or ""
        answers = yield Parallel([calls.memories(sid).search(query[:1000], {"limit": SEARCH_FETCH})
                                   for _, sid in scopes])
        hits: list[SearchItem] = []
        for (ns, _), answer in zip(scopes, answers, strict=True):
            if isinstance(answer, errors.NotFound):
                continue  # the scope went away meanwhile
            if isinstance(answer, BaseException):
                raise answer
            for hit in answer.items:
                value = value_of(hit)
                if hit.key is not None and matches(value, op.filter):
                    hits.append(search_item(hit, ns, value, hit.score))
        hits.sort(key=lambda h: (-(h.score or 0.0), h.namespace, h.key))
        return hits[op.offset:op.offset + op.limit]

    def _list_namespaces(self, op: ListNamespacesOp) -> Plan[list[Namespace]]:
        conditions = list(op.match_conditions or ())
        head = next((literal_head(c.path) for c in conditions if c.match_type == "prefix"), ())
        found = [ns for ns, _ in (yield from self._keyed_scopes(head))
                 if all(does_match(c, ns) for c in conditions)]
        if op.max_depth is not None:  # deeper namespaces are cut to max_depth, then counted once
            found = list({ns[:op.max_depth] for ns in found})
        return sorted(found)[op.offset:op.offset + op.limit]

    def _keyed_scopes(self, prefix: Namespace) -> Plan[list[tuple[Namespace, str]]]:
        """The store's namespaces under `prefix` that hold a keyed record, in the order they were made."""
        found: list[tuple[datetime, str, Namespace]] = []
        cursor = None
        while True:
            # The name prefix of ("a",) also finds ("ab",): the decoded namespace is checked.
            page = yield calls.scope_list(self.namespace, self.owner, self._name(prefix), cursor, PAGE)
            for s in page.items:
                ns = self._decode(s.name)
                if ns is None or ns[:len(prefix)] != tuple(prefix):
                    continue
                self._scopes[ns] = s.id
                if s.keyed:
                    found.append((s.created_at, s.id, ns))
            cursor = page.next_cursor
            if not cursor:
                break
        return [(ns, sid) for _, sid, ns in sorted(found)]

    def _scope(self, ns: Namespace, *, create: bool) -> Plan[str | None]:
        """The scope a namespace names (made on its first put); None when there is none and `create` is False."""
        if ns in self._scopes:
            return self._scopes[ns]
        name = self._name(ns)
        if len(name) > MAX_SCOPE_NAME or CONTROL.search(name):
            if create:
                raise InvalidNamespaceError(f"namespace {ns} is too long or holds control characters: a scope "
                                            f"name is at most {MAX_SCOPE_NAME} characters")
            return None
        for _ in range(2):
            page = yield calls.scope_list(self.namespace, self.owner, name, None, 1)
            if page.items and page.items[0].name == name:
                found: str = page.items[0].id
                self._scopes[ns] = found
                return found
            if not create:
                return None
            try:
                made = yield calls.scope_create(self.namespace, self.owner, name)
            except errors.Conflict as exc:  # made by a concurrent put: read it
                if exc.code != "scope_exists":
                    raise
                continue
            self._scopes[ns] = made.id
            return made.id  # type: ignore[no-any-return]
        raise errors.Conflict(f"the scope for {ns} could not be found or made", code="conflict")

    # ---- values and names --------------------------------------------------------------------------------------

    def _name(self, ns: Namespace) -> str:
        return self.scope_prefix + ".".join(ns)

    def _decode(self, name: str) -> Namespace | None:
        if not name.startswith(self.scope_prefix):
            return None
        labels = tuple(name[len(self.scope_prefix):].split("."))
        return labels if all(labels) else None

    def _check_put(self, ns: Namespace, key: str) -> None:
        if not valid_key(key):
            raise ValueError(f"a key is 1–{MAX_KEY} characters without control characters: {key[:40]!r}")
        if not ns:
            raise InvalidNamespaceError("Namespace cannot be empty.")

    @staticmethod
    def _texts(value: dict[str, Any], path: str | list[str]) -> list[str]:
        """The text at one index path: LangGraph's `get_text_at_path`, except that the whole value (`$`) is its
        string leaves rather than its JSON."""
        return text_leaves(value) if path == "$" else get_text_at_path(value, path)

    def _record(self, op: PutOp) -> dict[str, Any]:
        """The memory a put stores (cognition.schemas.records.MemoryCreate)."""
        assert op.value is not None
        value = dict(op.value)
        if op.index is False:
            texts: list[str] = []
        elif op.index is None:
            texts = [t for _, path in self.index_fields for t in self._texts(value, path)]
        else:
            texts = [t for f in op.index for t in self._texts(value, f if f == "$" else tokenize_path(f))]
        content = "\n".join(t for t in texts if t.strip()) or UNINDEXED
        return {"kind": self.kind, "tier": tier_for_ttl(op.ttl), "content": content, "subject": subject(op.key),
                "tags": ["langgraph"], "metadata": {"value": value}}
