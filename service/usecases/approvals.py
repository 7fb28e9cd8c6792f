"""The write-approval gate's surface: a scope's write policy (read by the persist query itself, see
cypher/artifact/save.cypher) and the decisions on pending records."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from graph import artifacts as repo
from graph import scopes as scopes_repo
from graph.errors import Conflict
from graph.model import Artifact, Family
from service.usecases.artifacts import new_id, not_found, scope_missing
from service.usecases.runtime import Runtime


async def approve(rt: Runtime, scope_id: str, id: str, families: Sequence[Family], *, actor: str,
                  reason: str | None) -> Artifact:
    """A pending record becomes active (write approval, or a quarantine lifted). An active record from an
    untrusted source (tool, web, import) not yet approved gets `approved_by`: it may now reach the eager
    constraints / instructions arms. Anything else: 409 `not_pending`."""
    try:
        rec = await _decide_pending(rt, "approve", scope_id, id, families, actor=actor, reason=reason)
    except Conflict:
        rec = await rt.graph.write(repo.endorse, scope_id=scope_id, id=id, families=[f.value for f in families],
                                   now=rt.clock(), actor=actor, event_id=new_id(), reason=reason)
        if rec["approved"] is None:
            was = rec["was"] if rec["found"] else "gone"
            raise Conflict(f"{id} is {was}, not pending approval (nor an unapproved record from an untrusted "
                           "source)", code="not_pending") from None
    return Artifact.from_node(rec["approved"])


async def reject(rt: Runtime, scope_id: str, id: str, families: Sequence[Family], *, actor: str,
                 reason: str | None) -> None:
    await _decide_pending(rt, "reject", scope_id, id, families, actor=actor, reason=reason)


async def _decide_pending(rt: Runtime, decision: str, scope_id: str, id: str, families: Sequence[Family], *,
                          actor: str, reason: str | None) -> dict[str, Any]:
    """Approve or reject a pending record (an event either way); 409 `not_pending` for any other status."""
    rec = await rt.graph.write(repo.decide_pending, decision, scope_id=scope_id, id=id,
                               families=[f.value for f in families], now=rt.clock(), actor=actor,
                               event_id=new_id(), reason=reason)
    if not rec["found"]:
        raise not_found(families[0], id)
    if rec["was"] != "pending":
        raise Conflict(f"{id} is {rec['was']}, not pending approval", code="not_pending")
    return rec


async def get_write_policy(rt: Runtime, scope_id: str) -> dict[str, Any]:
    found, stored = await rt.graph.read(scopes_repo.write_policy, scope_id=scope_id)
    if not found:
        raise scope_missing(scope_id)
    return dict(json.loads(stored)) if stored else {}


async def set_write_policy(rt: Runtime, scope_id: str, policy: dict[str, Any], *, actor: str) -> None:
    if not await rt.graph.write(scopes_repo.set_write_policy, scope_id=scope_id, policy=json.dumps(policy),
                                now=rt.clock(), actor=actor, event_id=new_id()):
        raise scope_missing(scope_id)
