"""Typed answers to "why was this archived / removed / kept?", read from the decision facts in the graph."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import quote

from pydantic import BaseModel

from graph import passes as repo
from graph.driver import Graph
from graph.errors import NotFound
from graph.model import native_props


class Evidence(BaseModel):
    id: str
    family: str | None = None
    status: str
    tombstone: bool


class BrokenReference(BaseModel):
    path: list[str]  # artifact ids along DEPENDS_ON, from the artifact to the broken node
    broken_id: str


class DecisionExplained(BaseModel):
    pass_id: str
    pass_kind: str | None = None
    phase: str | None = None
    pass_state: str | None = None
    action: str  # archive | remove | keep
    rule: str
    rules: list[str] = []
    at: datetime
    cites: list[Evidence] = []
    broken_reference: BrokenReference | None = None
    superseded_by: list[str] = []
    supported_by: list[str] = []


class Explanation(BaseModel):
    id: str
    scope_id: str
    family: str
    status: str
    decisions: list[DecisionExplained]
    browser_link: str | None = None  # Neo4j Browser on this artifact's decision graph (set by the service)


# Where the service serves the auditor's guide opened on one artifact, under the guide's base URL
# (service/http/browser_guide).
WHY_PATH = "/why/{id}.html"


def browser_link(browser_url: str, guide_base: str, artifact_id: str) -> str:
    """A Neo4j Browser URL that opens the auditor's guide on this artifact's "why was this archived" slide, its
    id set: run the slide's queries to draw the decision graph. Browser runs a `cmd=guide` URL command by
    itself; it decodes the whole URL before it reads `arg`, so the guide's URL has no `&` or `#` (the id is in
    its path)."""
    return f"{browser_url}?cmd=guide&arg={quote(guide_base + WHY_PATH.format(id=artifact_id), safe='')}"


def _typed(d: dict[str, Any]) -> DecisionExplained:
    d = native_props(d)
    cites = [Evidence.model_validate(c) for c in d.get("cites") or []]
    path = list(d.get("path") or [])
    rules = list(d.get("rules") or [])
    return DecisionExplained(
        **{k: d.get(k) for k in ("pass_id", "pass_kind", "phase", "pass_state", "action", "rule", "at")},
        rules=rules, cites=cites,
        broken_reference=BrokenReference(path=path, broken_id=path[-1]) if len(path) > 1 else None,
        superseded_by=[c.id for c in cites] if d.get("rule") == "conflicted" else [],
        supported_by=[c.id for c in cites] if d.get("rule") == "healthy_inbound_support" else [],
    )


async def explain(graph: Graph, artifact_id: str) -> Explanation:
    r = await graph.read(repo.explain, artifact_id=artifact_id)
    if r is None:
        raise NotFound(f"no artifact {artifact_id}", code="not_found")
    return Explanation(id=r["id"], scope_id=r["scope_id"], family=r["family"], status=r["status"],
                       decisions=[_typed(d) for d in r["decisions"]])
