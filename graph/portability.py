"""Scope export and import at the graph boundary: pages of one line type read by named queries
(`cypher/export/scope_*.cypher`), and the import's batched writes (`cypher/import/*.cypher`), all inside the one
transaction a use case hands in."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from neo4j import AsyncManagedTransaction

from graph.driver import run_named
from graph.model import native

Row = dict[str, Any]

# Line types read with an id cursor (`$after`) and with SKIP/LIMIT (composite keys), and their queries.
CURSOR_PAGES = {"artifact": "export/scope_artifacts", "tombstone": "export/scope_tombstones",
                "digest_pass": "export/scope_passes", "decision": "export/scope_decisions",
                "event": "export/scope_events"}
SKIP_PAGES = {"revision": "export/scope_revisions", "edge": "export/scope_edges"}
TAKES_WORKING_STATE = frozenset({"artifact", "revision", "edge", "event"})


async def read_scope(tx: AsyncManagedTransaction, *, scope_id: str) -> Row | None:
    rows = await run_named(tx, "export/scope_scope", scope_id=scope_id)
    return dict(native(rows[0]["row"])) if rows else None


async def read_page(tx: AsyncManagedTransaction, line_type: str, *, scope_id: str, working_state: bool,
                    after: str = "", skip: int = 0, limit: int) -> list[Row]:
    """One page of one line type, in its export order (rows as stored, temporal values native)."""
    params: dict[str, Any] = {"scope_id": scope_id, "limit": limit}
    if line_type in TAKES_WORKING_STATE:
        params["working_state"] = working_state
    if line_type in CURSOR_PAGES:
        rows = await run_named(tx, CURSOR_PAGES[line_type], after=after, **params)
    else:
        rows = await run_named(tx, SKIP_PAGES[line_type], skip=skip, **params)
    return [dict(native(r["row"])) for r in rows]


async def ids_present(tx: AsyncManagedTransaction, ids: Sequence[str]) -> list[str]:
    rows = await run_named(tx, "import/ids_present", ids=list(ids))
    return list(rows[0]["present"]) if rows else []


async def create(tx: AsyncManagedTransaction, name: str, **params: Any) -> Row:
    """One import statement (`cypher/import/<name>.cypher`); its counts."""
    rows = await run_named(tx, f"import/{name}", **params)
    return rows[0] if rows else {}
