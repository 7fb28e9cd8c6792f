"""Records a caller names by its own key (the LangGraph store's key): one live record per (scope, key), which a put
with the same key replaces as a new revision — an upsert, never a duplicate.

A put goes through the same use cases as every write, so the same pipeline, events and tenancy:
- no live record with the key: `artifacts.save` (gates, quarantine, write policy, revision 1, a `save` event),
  the key stored on the record;
- a live record: `artifacts.update` naming the revision just read (gates, a new revision, an `update` event); an
  archived one is restored first (a `restore` event: a put says "this is the value now");
- a removed record (a tombstone) keeps no key: the key names nothing, and a put creates a new record.

Concurrent puts of one key make one record: the database's `artifact_key_unique` constraint (scope_id, key) refuses
the second CREATE (the first holds the index entry until it commits), and the update compares the revision under
the record's lock (artifact/update.cypher). The loser of either race reads the key again and makes its revision on
what it finds, so every put lands as one revision of the one record, in the order the database serialised them."""

from __future__ import annotations

import contextlib
import dataclasses
from typing import Any

from graph import artifacts as repo
from graph.errors import Conflict, NotFound, PreconditionFailed, Unavailable
from graph.model import Artifact, Family
from service.usecases import artifacts as use
from service.usecases.drafts import Change, Draft
from service.usecases.runtime import Runtime

FAMILIES = [Family.memory]
MAX_ATTEMPTS = 16  # each lost race means another put of the key committed: progress is made by someone
# What a put replaces on a live record: the whole value a create would store, but the kind and the provenance,
# which the first put set (a kind decides the write policy and the eager arms: it does not change by an edit).
_REPLACED = ("content", "tags", "subject", "trust", "metadata", "tier")


def key_missing(key: str) -> NotFound:
    return NotFound(f"no memory with key {key!r} in this scope", code="not_found")


async def put(rt: Runtime, scope_id: str, key: str, draft: Draft, *, actor: str,
              role: str) -> tuple[Artifact, bool]:
    """(the record as stored, whether this put created it)."""
    keyed = dataclasses.replace(draft, fields={**draft.fields, "key": key})
    fams = [f.value for f in FAMILIES]
    for _ in range(MAX_ATTEMPTS):
        found = await rt.graph.read(repo.by_key, scope_id=scope_id, key=key, families=fams)
        if found is None:
            try:
                return (await use.save(rt, scope_id, [keyed], actor=actor, role=role)).items[0], True
            except Conflict as exc:
                if exc.code != "already_exists":
                    raise
                continue  # another put of this key created it first: make a revision of that record
        if found["status"] == "archived":
            # Restored or removed meanwhile: the update below (or the next attempt) decides.
            with contextlib.suppress(Conflict, NotFound):
                await use.restore(rt, scope_id, found["id"], FAMILIES, actor=actor, reason="put by key")
        fields: dict[str, Any] = {k: keyed.fields[k] for k in _REPLACED if k in keyed.fields}
        fields["content"] = keyed.content
        fields["metadata"] = dict(keyed.metadata)
        fields |= {k: v for k, v in (("occurred_at", keyed.occurred_at), ("valid_from", keyed.valid_from),
                                     ("valid_until", keyed.valid_until)) if v is not None}
        change = Change(expected_revision=int(found["revision"]), fields=fields, texts=keyed.texts,
                        supersedes=keyed.supersedes)
        try:
            return await use.update(rt, scope_id, found["id"], FAMILIES, change, actor=actor), False
        except (PreconditionFailed, NotFound):
            continue  # another put (or a delete) of this key committed first: read the key again
    raise Unavailable(f"too many concurrent writes of key {key!r}; retry shortly", code="key_contended")


async def get(rt: Runtime, scope_id: str, key: str) -> Artifact:
    """Load (a recall) the record the key names, whatever its status; 404 when none."""
    row = await rt.graph.write(repo.load_by_key, scope_id=scope_id, key=key, families=[f.value for f in FAMILIES],
                               now=rt.clock())
    if row is None:
        raise key_missing(key)
    return Artifact.from_node(row)


async def delete(rt: Runtime, scope_id: str, key: str, *, detach: bool, reason: str | None,
                 actor: str) -> tuple[str, list[str]]:
    """Delete the record the key names, as `artifacts.delete` does (a tombstone, an event); (its id, the dependents
    left pointing at the tombstone). 404 when the key names nothing."""
    found = await rt.graph.read(repo.by_key, scope_id=scope_id, key=key, families=[f.value for f in FAMILIES])
    if found is None:
        raise key_missing(key)
    try:
        return found["id"], await use.delete(rt, scope_id, found["id"], FAMILIES, detach=detach, reason=reason,
                                             actor=actor)
    except NotFound as exc:  # deleted meanwhile: for this caller the key names nothing
        raise key_missing(key) from exc
