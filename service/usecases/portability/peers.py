"""Importers from other memory systems: each turns the peer's own export into a `.cogx.jsonl` file
(service/usecases/portability/format.py), which then goes through the one import path (manifest, gates, one
transaction) like any export. The mappings are documented in docs/portability.md.

- `mem0` (mem0ai/mem0 2.0.18, `Memory.get_all()` / `MemoryClient.get_all()`: `{"results": [MemoryItem…]}`; a bare
  list and the platform export's `{"memories": […]}` are read too): each item is one memory.
- `mcp-neo4j-memory` (neo4j-contrib/mcp-neo4j, mcp-neo4j-memory 0.4.5, the `read_graph` tool's
  `KnowledgeGraph` JSON `{"entities": [{name, type, observations}], "relations": [{source, target,
  relationType}]}`; the MCP tool result around it is unwrapped): each entity is one memory, each relation a
  `RELATES_TO {type}` edge.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from digest.negation import derive_subject, is_negating
from graph.model import Kind
from service.usecases.portability.format import ImportRefused, build

FORMATS = ("mem0", "mcp-neo4j-memory")
Line = tuple[str, dict[str, Any]]


def convert(fmt: str, data: bytes, *, name: str | None = None, cognitive_owner: str | None = None) -> bytes:
    """The peer file `data` as a complete `.cogx.jsonl` file."""
    try:
        doc = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ImportRefused(f"a {fmt} file is one JSON document; this one is not JSON", code="import_line_invalid") \
            from exc
    if fmt == "mem0":
        return build(_mem0(doc, name=name, cognitive_owner=cognitive_owner))
    if fmt == "mcp-neo4j-memory":
        return build(_mcp_memory(doc, name=name, cognitive_owner=cognitive_owner))
    raise ImportRefused(f"unknown import format {fmt!r} (one of cognition, {', '.join(FORMATS)})",
                        code="import_format_unknown")


def _id() -> str:
    return uuid.uuid4().hex


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _when(value: Any, default: datetime) -> str:
    if isinstance(value, str):
        try:
            at = datetime.fromisoformat(value.replace("Z", "+00:00"))
            return (at if at.tzinfo else at.replace(tzinfo=UTC)).astimezone(UTC).isoformat()
        except ValueError:
            pass
    return default.isoformat()


def _scope_and_kernels(scope_id: str, *, name: str, owner: str, created_at: str) -> Iterator[Line]:
    yield "scope", {"id": scope_id, "namespace": "imported", "cognitive_owner": owner, "name": name,
                    "created_at": created_at}
    for family in ("agent_kernel", "world_kernel"):
        kid = _id()
        yield "artifact", {"id": kid, "scope_id": scope_id, "family": family, "status": "active", "content": "",
                           "revision": 1, "created_at": created_at, "updated_at": created_at,
                           "accessed_at": created_at, "recall_count": 0, "trust": 1.0, "stale": False,
                           "conflicted": False, "tags": []}
        yield "revision", {"artifact_id": kid, "revision": 1, "content": "", "at": created_at, "actor": "import"}


def _memory(scope_id: str, content: str, *, created_at: str, updated_at: str, kind: str = "semantic",
            tags: list[str] | None = None, subject: str | None = None, title: str | None = None,
            metadata: dict[str, Any] | None = None) -> Iterator[Line]:
    mid = _id()
    derived = subject is None
    subject = subject if subject is not None else derive_subject(content)
    props: dict[str, Any] = {
        "id": mid, "scope_id": scope_id, "family": "memory", "kind": kind, "tier": "role", "status": "active",
        "content": content, "content_hash": _sha(content), "metadata": json.dumps(metadata or {}, sort_keys=True),
        "tags": tags or [], "trust": 0.5, "created_at": created_at, "updated_at": updated_at,
        "accessed_at": updated_at, "recall_count": 0, "stale": False, "conflicted": False, "revision": 1,
        "created_by": "import", "negating": is_negating(content), "subject_derived": derived and subject is not None}
    if subject is not None:
        props["subject"] = subject
    if title is not None:
        props["title"] = title
    yield "artifact", props
    yield "revision", {"artifact_id": mid, "revision": 1, "content": content, "content_hash": props["content_hash"],
                       "at": created_at, "actor": "import"}


# ---- mem0 ---------------------------------------------------------------------------------------------------

_MEM0_IDS = ("user_id", "agent_id", "run_id", "actor_id", "role")


def _mem0(doc: Any, *, name: str | None, cognitive_owner: str | None) -> Iterator[Line]:
    items = doc if isinstance(doc, list) else (doc.get("results") or doc.get("memories")) \
        if isinstance(doc, dict) else None
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise ImportRefused('a mem0 export is {"results": [memory, …]} (get_all) or a list of memories',
                            code="import_line_invalid")
    owners = sorted({str(i.get("user_id") or i.get("agent_id")) for i in items
                     if i.get("user_id") or i.get("agent_id")})
    if cognitive_owner is None and len(owners) != 1:
        raise ImportRefused(f"the file's memories belong to {len(owners)} users/agents ({', '.join(owners[:5])}): "
                            "name the owner to import them under", code="import_owner_required")
    now = datetime.now(UTC)
    created = sorted(_when(i.get("created_at"), now) for i in items) or [now.isoformat()]
    scope_id = _id()
    yield from _scope_and_kernels(scope_id, name=name or "mem0", owner=cognitive_owner or owners[0],
                                  created_at=created[0])
    for item in items:
        text = item.get("memory", item.get("content"))
        if not isinstance(text, str) or not text.strip():
            raise ImportRefused(f"mem0 memory {item.get('id')!r} has no text", code="import_line_invalid")
        meta = item.get("metadata") or {}
        if not isinstance(meta, dict):
            raise ImportRefused(f"mem0 memory {item.get('id')!r}: metadata is not an object",
                                code="import_line_invalid")
        meta = dict(meta)
        kind = meta.pop("kind", None)
        meta.update({f"mem0_{k}": item[k] for k in ("id", "hash", *_MEM0_IDS) if item.get(k) is not None})
        at = _when(item.get("created_at"), now)
        categories = item.get("categories") if isinstance(item.get("categories"), list) else []
        updated = _when(item.get("updated_at"), datetime.fromisoformat(at))
        yield from _memory(scope_id, text, created_at=at, updated_at=updated,
                           kind=kind if kind in Kind.__members__ else "semantic",
                           tags=[str(c) for c in categories if isinstance(c, str)], metadata=meta)


# ---- mcp-neo4j-memory -----------------------------------------------------------------------------------------

def _unwrap(doc: Any) -> Any:
    """The `KnowledgeGraph` itself, or the MCP tool result around it (`structuredContent`, or its text)."""
    if isinstance(doc, dict) and "entities" not in doc:
        if isinstance(doc.get("structuredContent"), dict):
            return doc["structuredContent"]
        for part in doc.get("content") or []:
            if isinstance(part, dict) and part.get("type") == "text":
                try:
                    return json.loads(part.get("text", ""))
                except ValueError:
                    break
    return doc


def _mcp_memory(doc: Any, *, name: str | None, cognitive_owner: str | None) -> Iterator[Line]:
    graph = _unwrap(doc)
    if not isinstance(graph, dict) or not isinstance(graph.get("entities"), list):
        raise ImportRefused('an mcp-neo4j-memory read_graph result is {"entities": […], "relations": […]}',
                            code="import_line_invalid")
    if cognitive_owner is None:
        raise ImportRefused("an mcp-neo4j-memory graph names no owner: name the owner to import it under",
                            code="import_owner_required")
    now = datetime.now(UTC).isoformat()
    scope_id = _id()
    yield from _scope_and_kernels(scope_id, name=name or "mcp-neo4j-memory", owner=cognitive_owner, created_at=now)
    by_name: dict[str, str] = {}
    for entity in graph["entities"]:
        if not isinstance(entity, dict):
            raise ImportRefused("an entity is an object {name, type, observations}", code="import_line_invalid")
        ename, etype = entity.get("name"), entity.get("type")
        raw_obs = entity.get("observations")
        observations = [o for o in raw_obs if isinstance(o, str)] if isinstance(raw_obs, list) else []
        if not isinstance(ename, str) or not ename or ename in by_name:
            raise ImportRefused(f"entity {ename!r}: no name, or a name given twice", code="import_line_invalid")
        lines = list(_memory(scope_id, "\n".join(observations) or ename, created_at=now, updated_at=now,
                             subject=ename, title=ename, tags=[str(etype)] if etype else [],
                             metadata={"mcp_entity": ename, "mcp_type": etype, "mcp_observations": len(observations)}))
        by_name[ename] = lines[0][1]["id"]
        yield from lines
    relations = graph.get("relations") or []
    for rel in relations if isinstance(relations, list) else [None]:
        if not isinstance(rel, dict):
            raise ImportRefused("a relation is an object {source, target, relationType}", code="import_line_invalid")
        source, target, rtype = rel.get("source"), rel.get("target"), rel.get("relationType")
        if source not in by_name or target not in by_name or not isinstance(rtype, str) or not rtype:
            raise ImportRefused(f"relation {source!r} -{rtype!r}-> {target!r} names an entity not in the graph",
                                code="import_line_invalid")
        yield "edge", {"rel": "RELATES_TO", "from": by_name[source], "to": by_name[target], "relation": rtype}
