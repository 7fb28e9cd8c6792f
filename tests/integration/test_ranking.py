"""Hybrid ranking against the real Neo4j, with the real embedder (the `embed` extra): the embed step of the
write pipeline, the fused score as computed in Cypher versus its Python mirror, vector search confined to one
scope, the vector index, re-embedding, and relevant_memories = explicit search minus RecallQualityOK."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver

from cognition.schemas.records import KnowledgeCreate, MemoryCreate, MemoryUpdate, WorkingStateCreate
from digest.retention import retention_score
from graph.driver import Graph
from graph.model import Artifact, Family
from service.search import embedding, ranking
from service.search.embedding import Embedder, UseMultilingual
from service.usecases import artifacts as use
from service.usecases import context as ctx_use
from service.usecases.drafts import change_of, draft_of
from service.usecases.runtime import Runtime
from tests.conftest import OnGraph, OnRuntime, unique

EMBEDDER = UseMultilingual()


def save_memories(on_runtime: OnRuntime, scope_id: str, texts: list[str], *, embedder: Any = EMBEDDER,
                  kind: str = "fact") -> list[Artifact]:
    drafts = [draft_of(MemoryCreate(kind=kind, tier="agent", content=t, subject=unique("subj")))  # type: ignore[arg-type]
              for t in texts]

    async def go(rt: Runtime) -> list[Artifact]:
        return (await use.save(rt, scope_id, drafts, actor="test")).items

    out: list[Artifact] = on_runtime(go, embedder=embedder)
    return out


def ranked(on_runtime: OnRuntime, scope_id: str, query: str, *, embedder: Any = EMBEDDER, limit: int = 10,
           recall: bool = False) -> list[ranking.RankedHit]:
    async def go(rt: Runtime) -> list[ranking.RankedHit]:
        return await use.search_ranked(rt, scope_id, [Family.memory], query=query, limit=limit, recall=recall)

    out: list[ranking.RankedHit] = on_runtime(go, embedder=embedder)
    return out


def node(raw: Driver, id: str) -> dict[str, Any]:
    records, _, _ = raw.execute_query("MATCH (a:Artifact {id: $id}) RETURN properties(a) AS p", id=id)
    p: dict[str, Any] = records[0]["p"]
    return p


def test_the_shipped_embedder_is_an_embedder() -> None:
    assert isinstance(EMBEDDER, Embedder)
    [v] = EMBEDDER.embed(["多语言 multilingual"])
    assert len(v) == EMBEDDER.dimensions == 512 and math.isclose(sum(x * x for x in v), 1.0, rel_tol=1e-4)
    assert embedding.make_embedder("use-multilingual").name == EMBEDDER.name  # type: ignore[union-attr]
    assert embedding.make_embedder(None) is None and embedding.make_embedder("none") is None
    with pytest.raises(ValueError):
        embedding.make_embedder("word2vec")


def test_save_embeds_after_the_gates_and_update_re_embeds(client: TestClient, scope: dict[str, Any],
                                                         raw: Driver, on_runtime: OnRuntime) -> None:
    [m] = save_memories(on_runtime, scope["id"], ["The staging database runs PostgreSQL 15."])
    p = node(raw, m.id)
    assert len(p["embedding"]) == 512
    assert p["embedding_model"] == EMBEDDER.name and p["embedding_revision"] == 1
    assert "embedding" not in client.get(f"/v1/scopes/{scope['id']}/memories/{m.id}").json()

    async def more(rt: Runtime) -> tuple[Artifact, Artifact, Artifact]:
        k = (await use.save(rt, scope["id"], [draft_of(KnowledgeCreate(title="Cypher", body="Neo4j's query language"))],
                            actor="t")).items[0]
        w = (await use.save(rt, scope["id"], [draft_of(WorkingStateCreate(content="scratch"))], actor="t")).items[0]
        u = await use.update(rt, scope["id"], m.id, [Family.memory],
                             change_of(MemoryUpdate(content="The staging database runs PostgreSQL 16."), 1),
                             actor="t")
        return k, w, u

    k, w, u = on_runtime(more, embedder=EMBEDDER)
    expected = EMBEDDER.embed(["Cypher\nNeo4j's query language"])[0]
    assert node(raw, k.id)["embedding"] == pytest.approx(expected)
    assert "embedding" not in node(raw, w.id)  # working state is never searched, never embedded
    p2 = node(raw, u.id)
    assert u.revision == 2 and p2["embedding_revision"] == 2
    assert p2["embedding"] == pytest.approx(EMBEDDER.embed(["The staging database runs PostgreSQL 16."])[0])

    # A vector from an older revision is never used: the row is then found by full-text only.
    raw.execute_query("MATCH (a:Artifact {id: $id}) SET a.embedding_revision = 1", id=m.id)
    hits = ranked(on_runtime, scope["id"], "which Postgres version does staging use")
    assert all(h.vec_rank is None for h in hits if h.artifact["id"] == m.id)

    # Rejected writes embed nothing into the graph (the gates run first and nothing persists).
    r = client.post(f"/v1/scopes/{scope['id']}/memories",
                    json={"kind": "fact", "tier": "agent", "content": "PLAN_STATE: step 3"})
    assert r.status_code == 422


def test_fused_score_in_cypher_equals_the_python_mirror(scope: dict[str, Any], raw: Driver,
                                                      on_runtime: OnRuntime) -> None:
    texts = ["Bob is allergic to peanuts; order lunch without them.",
             "Alice cannot eat shellfish, so avoid shrimp at dinner.",
             "The cafeteria serves lunch from noon until two.",
             "Peanut butter is stocked in the office kitchen.",
             "张经理对海鲜过敏，订餐时要避开虾和蟹。",
             "The office is closed on public holidays."]
    saved = save_memories(on_runtime, scope["id"], texts)
    raw.execute_query("MATCH (a:Artifact {id: $id}) SET a.recall_count = 12, a.trust = 0.9", id=saved[3].id)
    before = datetime.now(UTC)
    hits = ranked(on_runtime, scope["id"], "food allergies to keep in mind when ordering lunch")
    assert hits, "nothing found"
    assert any(h.vec_rank is not None for h in hits) and any(h.ft_rank is not None for h in hits)
    assert any(h.ft_rank is None for h in hits), "vectors find a row full-text misses (the Chinese one)"
    for h in hits:
        assert math.isclose(h.score, ranking.fused_score(h.ft_rank, h.vec_rank, h.retention), rel_tol=1e-12)
        art = h.artifact
        expected = retention_score(recall_count=art["recall_count"], accessed_at=art["accessed_at"],
                                   created_at=art["created_at"], trust=art["trust"], now=before)
        assert math.isclose(h.retention, expected, abs_tol=1e-4)
    assert [h.artifact["id"] for h in hits] == [d for d, _ in ranking.fuse(
        [h.artifact["id"] for h in sorted((h for h in hits if h.ft_rank), key=lambda h: h.ft_rank or 0)],
        [h.artifact["id"] for h in sorted((h for h in hits if h.vec_rank), key=lambda h: h.vec_rank or 0)],
        {h.artifact["id"]: h.retention for h in hits})]
    # the ranks given are 1..n in each ranking, without gaps
    for key in ("ft_rank", "vec_rank"):
        ranks = sorted(getattr(h, key) for h in hits if getattr(h, key) is not None)
        assert ranks == list(range(1, len(ranks) + 1))


def test_vectors_find_a_paraphrase_that_full_text_misses(scope: dict[str, Any], on_runtime: OnRuntime) -> None:
    [coffee, _] = save_memories(on_runtime, scope["id"], ["The user drinks black coffee every morning.",
                                                        "Quarterly planning happens in the last week."])
    assert ranked(on_runtime, scope["id"], "favourite hot beverage", embedder=None) == []
    hits = ranked(on_runtime, scope["id"], "favourite hot beverage")
    assert hits[0].artifact["id"] == coffee.id and hits[0].ft_rank is None and hits[0].vec_rank == 1
    # cross-lingual: a Chinese query finds the English memory
    assert ranked(on_runtime, scope["id"], "用户早上喝什么")[0].artifact["id"] == coffee.id


def test_vector_search_never_crosses_scopes(client: TestClient, scope: dict[str, Any],
                                            on_runtime: OnRuntime) -> None:
    other = client.post("/v1/scopes",
                        json={"namespace": unique("ns"), "cognitive_owner": "o", "name": "x"}).json()
    save_memories(on_runtime, other["id"], ["The launch code is kept in the red envelope."])
    save_memories(on_runtime, scope["id"], ["Lunch is at noon."])
    hits = ranked(on_runtime, scope["id"], "where is the launch code kept")
    assert all(h.artifact["scope_id"] == scope["id"] for h in hits)
    assert "red envelope" not in " ".join(h.artifact["content"] for h in hits)


def test_relevant_memories_is_search_minus_recall_quality(scope: dict[str, Any], raw: Driver,
                                                          on_runtime: OnRuntime) -> None:
    texts = ["Deployments to production are frozen on Fridays.", "We release to production on Tuesdays.",
             "生产环境每周五禁止发布。", "The release checklist lives in the wiki.",
             "Coffee machine is broken."]
    saved = save_memories(on_runtime, scope["id"], texts)
    raw.execute_query("MATCH (a:Artifact {id: $id}) SET a.stale = true", id=saved[1].id)
    raw.execute_query("MATCH (a:Artifact {id: $id}) SET a.conflicted = true", id=saved[2].id)
    query = "when can we release to production"
    search_ids = [h.artifact["id"] for h in ranked(on_runtime, scope["id"], query, limit=20)]
    assert saved[1].id in search_ids and saved[2].id in search_ids  # search shows them (flagged)

    async def go(rt: Runtime) -> list[str]:
        got = await ctx_use.assemble(rt, scope["id"], surface="lazy", query=query, limits={"relevant_memories": 20})
        return [a.id for a in got.arms["relevant_memories"]]

    assert on_runtime(go, embedder=EMBEDDER) == [i for i in search_ids if i not in (saved[1].id, saved[2].id)]


def test_vector_index_sized_to_the_embedder_and_idempotent(raw: Driver, on_graph: OnGraph) -> None:
    class Tiny:
        name = "tiny-test"
        dimensions = 8

        def embed(self, texts: Any) -> list[list[float]]:
            return [[1.0] * 8 for _ in texts]

    def dims() -> Any:
        records, _, _ = raw.execute_query(
            "SHOW VECTOR INDEXES YIELD name, options WHERE name = 'artifact_embedding' "
            "RETURN options.indexConfig.`vector.dimensions` AS d")
        return records[0]["d"] if records else None

    async def ensure(graph: Graph, e: Embedder) -> None:
        await embedding.ensure_vector_index(graph, e)

    on_graph(lambda g: ensure(g, EMBEDDER))
    on_graph(lambda g: ensure(g, EMBEDDER))  # idempotent
    assert dims() == 512
    on_graph(lambda g: ensure(g, Tiny()))
    assert dims() == 8
    on_graph(lambda g: ensure(g, EMBEDDER))
    assert dims() == 512


def test_reembed_backfills_rows_saved_without_an_embedder(scope: dict[str, Any], raw: Driver,
                                                          on_graph: OnGraph, on_runtime: OnRuntime) -> None:
    saved = save_memories(on_runtime, scope["id"], ["old memory one", "old memory two", "old memory three"],
                          embedder=None)
    assert all("embedding" not in node(raw, a.id) for a in saved)

    async def go(graph: Graph) -> int:
        return await embedding.reembed(graph, EMBEDDER, scope_id=scope["id"], batch=2)

    assert on_graph(go) == 3
    assert all(node(raw, a.id)["embedding_model"] == EMBEDDER.name for a in saved)
    assert on_graph(go) == 0  # nothing left
