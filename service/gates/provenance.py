"""Provenance: every write's `source` (docs/security.md), and the read-time rule it feeds.

The default comes from the calling key's role: an operator writes as `user` (a person at the console), an
agent as `agent`. A caller may declare a *less* trusted source (an agent relaying a tool result says `tool`),
never a more trusted one: an agent key that claims `user` gets 422 `source_not_permitted`. Operators may
declare any source (an import run by an operator is `import`).

What the source decides is read-time gating, not a filter: a memory from `tool`, `web` or `import` never
reaches the eager `constraints` and `instructions` arms of the context call unless an operator approved it
(cypher/fragments/eager_trusted_ok.cypher; `eager_trusted_ok` below is its Python mirror). An injection that
slips past every write-time filter can still be stored and searched, but it cannot give orders.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from graph.errors import Invalid
from graph.model import UNTRUSTED_SOURCES, Source

__all__ = ["DEFAULT_BY_ROLE", "eager_trusted_ok", "resolve_source"]

DEFAULT_BY_ROLE: dict[str, Source] = {"operator": Source.user, "agent": Source.agent}
# How much a source speaks for the scope's owner: a caller may only lower it.
_RANK = {Source.user: 2, Source.agent: 1, Source.tool: 0, Source.web: 0, Source.import_: 0}


def resolve_source(declared: Source | None, role: str) -> Source:
    """The source stored for a write by a key of `role` that declared `declared` (None: the role's default)."""
    default = DEFAULT_BY_ROLE.get(role, Source.agent)
    if declared is None:
        return default
    if _RANK[declared] > _RANK[default]:
        raise Invalid(f"a key with role {role!r} may not declare source {declared.value!r} "
                      f"(at most {default.value!r})", code="source_not_permitted", details={"field": "source"})
    return declared


def eager_trusted_ok(artifact: Mapping[str, Any]) -> bool:
    """May this memory be placed in the eager constraints / instructions arms? Python mirror of
    cypher/fragments/eager_trusted_ok.cypher. Records without a source (saved before provenance) pass."""
    source = artifact.get("source")
    return source is None or Source(source) not in UNTRUSTED_SOURCES or artifact.get("approved_by") is not None
