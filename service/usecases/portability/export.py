"""Scope export: everything a scope owns as `.cogx.jsonl` lines (service/usecases/portability/format.py), read page by
page (one short read transaction per page, `cypher/export/scope_*.cypher`) and streamed as it is read, so a
large scope never sits in memory. Vectors are left out (derived; `service.search.embedding.reembed` rebuilds them),
API keys are not scope data and never appear."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from graph import portability as repo
from graph.driver import Graph
from graph.errors import NotFound
from graph.model import EMBEDDING_PROPS
from service.usecases.portability.format import Digest, encode
from service.usecases.runtime import Runtime

PAGE = 1000


def _clean(row: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if v is not None and k not in EMBEDDING_PROPS}


async def export_scope(rt: Runtime, scope_id: str, *, working_state: bool = False,
                       page: int = PAGE) -> AsyncIterator[bytes]:
    """The scope's lines, in file order, then the manifest. 404 `scope_not_found` before the first line."""
    scope = await rt.graph.read(repo.read_scope, scope_id=scope_id)
    if scope is None:
        raise NotFound(f"no scope {scope_id}", code="scope_not_found")
    return _lines(rt.graph, scope, working_state=working_state, page=page)


async def _lines(graph: Graph, scope: dict[str, Any], *, working_state: bool, page: int) -> AsyncIterator[bytes]:
    digest = Digest()
    scope_id = str(scope["id"])
    policy = scope.pop("write_policy", None)
    yield digest.add("scope", encode({**_clean(scope), "type": "scope"}))
    if policy is not None:
        yield digest.add("write_policy", encode({"type": "write_policy", "policy": json.loads(policy)}))
    for line_type in ("artifact", "revision", "tombstone", "edge", "digest_pass", "decision", "event"):
        after, skip = "", 0
        while True:
            rows = await graph.read(repo.read_page, line_type, scope_id=scope_id, working_state=working_state,
                                    after=after, skip=skip, limit=page)
            for row in rows:
                yield digest.add(line_type, encode({**_clean(row), "type": line_type}))
            if len(rows) < page:
                break
            after, skip = str(rows[-1].get("id", "")), skip + len(rows)
    # Every field of the manifest is checked on import (format, version, counts, sha256), so it holds no others.
    yield digest.manifest()
