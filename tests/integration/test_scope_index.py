"""Rankings are tenant-local (service/scope_index.py): a scope's results and scores do not depend on what
other tenants store; and the scope's in-process copy follows every write (save, update, delete, vectors)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fastapi.testclient import TestClient
from neo4j import Driver

from bench.common import TextGen, raw_props
from graph.driver import Graph
from graph.model import Family
from service import artifacts as use
from service import ranking, scope_index
from service.api.schemas import MemoryCreate, MemoryUpdate
from tests.conftest import OnGraph, unique

# The figure is 100,000 (`make eval` measures beside a 100k-memory tenant); here 4,000 (written raw)
# keep the test quick, and half of them are copies of the scope's own texts, so every query term's document
# frequency and the average length move as much as another tenant can move them (Lucene's ranking does move:
# asserted).
OTHER_TENANT_ROWS = 4_000
QUERIES = ["coffee morning", "deploy the database", "用户 喜欢 咖啡", "weekend travel hotel", "会议 报告",
           "release branch merge", "zephyrquartz", "payment refund order", "深色 模式", "python rust java",
           "What did the user say about the coffee and the database?", "travel 旅行 hotel 酒店"]


def _scope(on_graph: OnGraph, namespace: str, owner: str | None = None) -> str:
    from service.scopes import create_scope

    async def go(graph: Graph) -> str:
        s = await create_scope(graph, namespace=namespace, cognitive_owner=owner or unique("o"), name=unique("s"),
                               actor="test")
        return str(s["id"])

    out: str = on_graph(go)
    return out


def _save(on_graph: OnGraph, scope_id: str, texts: list[str], kind: str = "episodic") -> list[str]:
    async def go(graph: Graph) -> list[str]:
        ids: list[str] = []
        for i in range(0, len(texts), 1000):
            bodies = [MemoryCreate(kind=kind, tier="agent", content=t)  # type: ignore[arg-type]
                      for t in texts[i:i + 1000]]
            ids += [a.id for a in (await use.save(graph, scope_id, Family.memory, bodies, actor="test",
                                                  embedder=None)).items]
        return ids

    out: list[str] = on_graph(go)
    return out


def _save_raw(raw: Driver, scope_id: str, texts: list[str]) -> None:
    """Another tenant's rows, written raw with exactly the properties the service stores
    (bench.common.raw_props): the store holds them (and Lucene indexes them) at a fraction of the save path's
    cost, which this test does not measure."""
    for i in range(0, len(texts), 2000):
        rows = [raw_props(MemoryCreate(kind="episodic", tier="agent", content=t), scope_id)  # type: ignore[arg-type]
                for t in texts[i:i + 2000]]
        raw.execute_query("UNWIND $rows AS r CREATE (a:Artifact:Memory) SET a = r", rows=rows)


Ranked = list[list[tuple[str, float]]]


def _rank(on_graph: OnGraph, scope_id: str, params: ranking.RankingParams) -> Ranked:
    async def go(graph: Graph) -> Ranked:
        out = []
        for q in QUERIES:
            hits = await use.search_ranked(graph, scope_id, [Family.memory], query=q, limit=10, recall=False,
                                           embedder=None, params=params)
            out.append([(h.artifact["id"], h.score) for h in hits])
        return out

    res: Ranked = on_graph(go)
    return res


def _lexical(on_graph: OnGraph, scope_id: str, ranked: Ranked) -> list[list[float]]:
    """The scope index's own lexical scores (BM25 with the scope's statistics, plus neighbours) of each ranked
    hit: the numbers the rank-based fused score is made from."""
    async def go(graph: Graph) -> list[list[float]]:
        copy = await scope_index.INDEXES.copy(graph, scope_id, None)
        params = scope_index.index_params(None, ranking.DEFAULT)
        pos = {d: i for i, d in enumerate(copy.ids)}
        return [[float(copy.lexical_scores(q, params)[pos[d]]) for d, _ in hits]
                for q, hits in zip(QUERIES, ranked, strict=True)]

    res: list[list[float]] = on_graph(go)
    return res


def _context(on_graph: OnGraph, scope_id: str, params: ranking.RankingParams) -> list[list[str]]:
    """The context call's query-driven arm (`relevant_memories`) for each query: ids in order."""
    from service import context

    async def go(graph: Graph) -> list[list[str]]:
        out = []
        for q in QUERIES:
            got = await context.assemble(graph, scope_id, surface="lazy", query=q, embedder=None, params=params)
            out.append([a.id for a in got.arms["relevant_memories"]])
        return out

    res: list[list[str]] = on_graph(go)
    return res


def test_another_tenants_memories_change_nothing_in_a_scopes_ranking(client: TestClient, on_graph: OnGraph,
                                                                     raw: Driver) -> None:
    # `client`: the app's start-up applies the schema (the Lucene comparison needs the full-text index).
    gen = TextGen(seed=3)
    namespace, owner = unique("ns-small"), unique("o")
    mine = _scope(on_graph, namespace, owner)
    texts = [gen.content() for _ in range(300)]
    _save(on_graph, mine, texts)
    # Retention (recency of access) moves with the clock: the scores are compared without it (relevance alone,
    # exactly); the default ranking, retention included, is compared by ids and order.
    local = replace(ranking.DEFAULT, retention_boost=0.0)
    lucene = replace(local, scope_index=False)
    before, before_default = _rank(on_graph, mine, local), _rank(on_graph, mine, ranking.DEFAULT)
    before_lucene = _rank(on_graph, mine, lucene)
    assert sum(len(r) for r in before) > 40 and sum(bool(r) for r in before) >= len(QUERIES) - 2
    bm25_before = _lexical(on_graph, mine, before)
    assert len({round(x, 9) for r in bm25_before for x in r}) > 20  # graded BM25 scores, not a few ties

    # Another tenant (other namespace, other owner): half copies of this scope's own texts, half other text.
    # And another scope of the same owner: a scope's ranking is its own, not its tenant's either.
    other = _scope(on_graph, unique("ns-big"))
    noise = TextGen(seed=11)
    half = OTHER_TENANT_ROWS // 2
    _save_raw(raw, other, [texts[i % len(texts)] for i in range(half)] + [noise.sentence() for _ in range(half)])
    sibling = _scope(on_graph, namespace, owner)
    _save(on_graph, sibling, [noise.content() for _ in range(300)], kind="fact")
    scope_index.INDEXES.clear()  # rebuilt from Neo4j, not remembered from before

    after = _rank(on_graph, mine, local)
    for q, b, a in zip(QUERIES, before, after, strict=True):
        assert a == b, f"{q!r}: the ranking moved"  # same ids, same order, same scores (exact floats)
    assert _lexical(on_graph, mine, after) == bm25_before  # and the BM25 scores under them, exactly
    assert [[i for i, _ in r] for r in _rank(on_graph, mine, ranking.DEFAULT)] == \
        [[i for i, _ in r] for r in before_default]
    # The test can fail: Lucene's index-wide statistics do move with the other tenant's rows.
    moved = _rank(on_graph, mine, lucene)
    assert moved != before_lucene
    assert sum(a != b for a, b in zip(moved, before_lucene, strict=True)) >= len(QUERIES) // 3


def test_the_context_call_ranks_tenant_locally_too(client: TestClient, on_graph: OnGraph, raw: Driver) -> None:
    gen = TextGen(seed=5)
    mine = _scope(on_graph, unique("ns-ctx"))
    texts = [gen.content() for _ in range(200)]
    _save(on_graph, mine, texts)
    local = replace(ranking.DEFAULT, retention_boost=0.0)  # the context call counts recalls: retention moves
    before = _context(on_graph, mine, local)
    assert sum(len(r) for r in before) > 30
    other = _scope(on_graph, unique("ns-ctx-big"))
    _save_raw(raw, other, [texts[i % len(texts)] for i in range(2_000)])
    scope_index.INDEXES.clear()
    assert _context(on_graph, mine, local) == before


def test_the_copy_follows_saves_updates_and_deletes(scope: dict[str, Any], on_graph: OnGraph) -> None:
    sid = scope["id"]
    # Facts: no neighbouring episodes lend scores here (that lever is tested in tests/unit/test_lexical.py).
    [a, b] = _save(on_graph, sid, ["the quarterly report is due friday", "lunch with the design team"], "fact")

    def found(q: str) -> list[str]:
        return [ids for ids, _ in _rank_one(on_graph, sid, q)]

    assert found("quarterly") == [a]
    loads = scope_index.INDEXES.loads
    assert found("quarterly") == [a] and scope_index.INDEXES.loads == loads  # unchanged scope: no reload
    [c] = _save(on_graph, sid, ["another quarterly review in march"], "fact")
    assert set(found("quarterly")) == {a, c}

    async def edit(graph: Graph) -> None:
        await use.update(graph, sid, b, [Family.memory], MemoryUpdate(content="dinner with the quarterly board"),
                         if_match='"1"', actor="test", embedder=None)
        await use.delete(graph, sid, a, [Family.memory], actor="test", detach=False, reason="test")

    on_graph(edit)
    assert set(found("quarterly")) == {b, c}
    assert found("lunch") == []


def _rank_one(on_graph: OnGraph, scope_id: str, q: str) -> list[tuple[str, float]]:
    async def go(graph: Graph) -> list[tuple[str, float]]:
        hits = await use.search_ranked(graph, scope_id, [Family.memory], query=q, limit=10, recall=False,
                                       embedder=None)
        return [(h.artifact["id"], h.score) for h in hits]

    out: list[tuple[str, float]] = on_graph(go)
    return out
