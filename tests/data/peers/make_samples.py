"""Writes the peer sample files in this folder, in the shapes the peers' own code produces (run once; the output
is committed, so tests read files and do not depend on this script).

- `mem0_get_all.json`: mem0ai/mem0 2.0.18 (commit 8d5b7865bd05), `Memory.get_all()` →
  `{"results": [...]}`, each item `MemoryItem(id, memory, hash, created_at, updated_at).model_dump(exclude={"score"})`
  plus the promoted payload keys (`user_id`, `agent_id`, `run_id`, …) and the rest of the payload as `metadata`
  (mem0/memory/main.py `_get_all_from_vector_store`; `hash` is the MD5 of the text, `created_at` is
  `datetime.now(timezone.utc).isoformat()`).
- `mcp_neo4j_memory_read_graph.json`: neo4j-contrib/mcp-neo4j (commit dbc01ba78f17), mcp-neo4j-memory 0.4.5,
  the `read_graph` tool's text content, `KnowledgeGraph.model_dump_json()` (servers/mcp-neo4j-memory/src/
  mcp_neo4j_memory/neo4j_memory.py and server.py).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from pydantic import BaseModel

HERE = Path(__file__).parent


class MemoryItem(BaseModel):  # mem0/configs/base.py
    id: str
    memory: str
    hash: str | None = None
    metadata: dict[str, object] | None = None
    score: float | None = None
    created_at: str | None = None
    updated_at: str | None = None


class Entity(BaseModel):  # mcp_neo4j_memory/neo4j_memory.py
    name: str
    type: str
    observations: list[str]


class Relation(BaseModel):
    source: str
    target: str
    relationType: str  # noqa: N815 (the peer's field name)


class KnowledgeGraph(BaseModel):
    entities: list[Entity] = []
    relations: list[Relation] = []


def mem0() -> str:
    rows = [
        ("5f6c2a0e-8a3b-4d41-9f0e-2b7d1c9a4e01", "Prefers vegetarian food", "2026-03-02T10:15:00.123456+00:00", None,
         {"user_id": "alice"}, {"category": "food"}),
        ("9d1e7b42-3c55-4a8e-b6f1-7e2a0c5d8f12", "Is allergic to peanuts", "2026-03-02T10:16:30.000001+00:00",
         "2026-04-11T08:00:00.500000+00:00", {"user_id": "alice", "agent_id": "travel-bot"}, None),
        ("c3a9f0d6-1b2e-4f7a-8c3d-5e6f7a8b9c23", "Works as a data engineer in Berlin",
         "2026-03-05T18:40:12.250000+00:00", None, {"user_id": "alice", "run_id": "trip-2026"},
         {"source_app": "chat"}),
    ]
    results = []
    for mid, text, created, updated, promoted, extra in rows:
        item = MemoryItem(id=mid, memory=text, hash=hashlib.md5(text.encode()).hexdigest(),  # noqa: S324 (mem0's)
                          created_at=created, updated_at=updated).model_dump(exclude={"score"})
        item.update(promoted)
        if extra:
            item["metadata"] = extra
        results.append(item)
    return json.dumps({"results": results}, indent=2)


def mcp_memory() -> str:
    graph = KnowledgeGraph(
        entities=[Entity(name="John Smith", type="person",
                         observations=["Works at Neo4j", "Lives in San Francisco", "Expert in graph databases"]),
                  Entity(name="Neo4j Inc", type="company", observations=["Graph database company"]),
                  Entity(name="San Francisco", type="location", observations=[])],
        relations=[Relation(source="John Smith", target="Neo4j Inc", relationType="WORKS_AT"),
                   Relation(source="John Smith", target="San Francisco", relationType="LIVES_IN")])
    return graph.model_dump_json()


if __name__ == "__main__":
    (HERE / "mem0_get_all.json").write_text(mem0() + "\n")
    (HERE / "mcp_neo4j_memory_read_graph.json").write_text(mcp_memory() + "\n")
