"""The write-approval gate's surface: a scope's write policy (read by the persist query itself, see
cypher/artifact/save.cypher) and the decisions on pending records."""

from __future__ import annotations

import json
from typing import Any

import cypher
from graph import artifacts as repo
from graph.driver import Graph
from graph.errors import Conflict
from graph.model import Artifact, Family
from service.artifacts import _not_found, _scope_missing, new_id
from service.deps import utcnow


async def approve(graph: Graph, scope_id: str, id: str, families: list[Family], *, actor: str,
                  reason: str | None) -> Artifact:
    """A pending record becomes active (write approval, or a quarantine lifted). An active record from an
    untrusted source (tool, web, import) not yet approved gets `approved_by`: it may now reach the eager
    constraints / instructions arms. Anything else: 409 `not_pending`."""
    try:
        rec = await _decide_pending(graph, "approve", scope_id, id, families, actor=actor, reason=reason)
    except Conflict:
        rec = await graph.write(repo.endorse, scope_id=scope_id, id=id, families=[f.value for f in families],
                                now=utcnow(), actor=actor, event_id=new_id(), reason=reason)
        if rec["approved"] is None:
            was = rec["was"] if rec["found"] else "gone"
            raise Conflict(f"{id} is {was}, not pending approval (nor an unapproved record from an untrusted "
                           "source)", code="not_pending") from None
    return Artifact.from_node(rec["approved"])


async def reject(graph: Graph, scope_id: str, id: str, families: list[Family], *, actor: str,
                 reason: str | None) -> None:
    await _decide_pending(graph, "reject", scope_id, id, families, actor=actor, reason=reason)


async def _decide_pending(graph: Graph, decision: str, scope_id: str, id: str, families: list[Family], *,
                          actor: str, reason: str | None) -> dict[str, Any]:
    """Approve or reject a pending record (an event either way); 409 `not_pending` for any other status."""
    rec = await graph.write(repo.decide_pending, decision, scope_id=scope_id, id=id,
                            families=[f.value for f in families], now=utcnow(), actor=actor, event_id=new_id(),
                            reason=reason)
    if not rec["found"]:
        raise _not_found(families[0], id)
    if rec["was"] != "pending":
        raise Conflict(f"{id} is {rec['was']}, not pending approval", code="not_pending")
    return rec


async def get_write_policy(graph: Graph, scope_id: str) -> dict[str, Any]:
    rows = await graph.query(cypher.load("scope/write_policy_get"), write=False, id=scope_id)
    if not rows:
        raise _scope_missing(scope_id)
    stored = rows[0]["policy"]
    return dict(json.loads(stored)) if stored else {}


async def set_write_policy(graph: Graph, scope_id: str, policy: dict[str, Any], *, actor: str) -> None:
    rows = await graph.query(cypher.load("scope/write_policy_set"), id=scope_id, policy=json.dumps(policy),
                             now=utcnow(), actor=actor, event_id=new_id())
    if not rows:
        raise _scope_missing(scope_id)
