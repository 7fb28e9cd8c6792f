"""Rankings are tenant-local (service/search/scope_index.py): a scope's results and scores do not depend on what
other tenants store; and the scope's in-process copy follows every write (save, update, delete, vectors)."""

from __future__ import annotations

import random
import threading
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from neo4j import Driver

import cypher
from bench.common import TextGen, raw_props
from cognition.schemas.records import MemoryCreate, MemoryUpdate
from graph import recall as recall_repo
from graph.driver import Graph
from graph.model import Family
from service.search import ranking, scope_index
from service.usecases import artifacts as use
from service.usecases.drafts import change_of, draft_of
from service.usecases.runtime import Runtime
from tests.conftest import OnGraph, OnRuntime, unique
from tests.copies import assert_same_copy

# `make eval` measures beside a 100k-memory tenant; here 4,000 (written raw)
# keep the test quick, and half of them are copies of the scope's own texts, so every query term's document
# frequency and the average length move as much as another tenant can move them (Lucene's ranking does move:
# asserted).
OTHER_TENANT_ROWS = 4_000
QUERIES = ["coffee morning", "deploy the database", "用户 喜欢 咖啡", "weekend travel hotel", "会议 报告",
           "release branch merge", "zephyrquartz", "payment refund order", "深色 模式", "python rust java",
           "What did the user say about the coffee and the database?", "travel 旅行 hotel 酒店"]


def _scope(on_runtime: OnRuntime, namespace: str, owner: str | None = None) -> str:
    from service.usecases.scopes import create_scope

    async def go(rt: Runtime) -> str:
        s = await create_scope(rt, namespace=namespace, cognitive_owner=owner or unique("o"), name=unique("s"),
                               actor="test")
        return str(s["id"])

    out: str = on_runtime(go)
    return out


def _save(on_runtime: OnRuntime, scope_id: str, texts: list[str], kind: str = "episodic") -> list[str]:
    async def go(rt: Runtime) -> list[str]:
        ids: list[str] = []
        for i in range(0, len(texts), 1000):
            drafts = [draft_of(MemoryCreate(kind=kind, tier="agent", content=t))  # type: ignore[arg-type]
                      for t in texts[i:i + 1000]]
            ids += [a.id for a in (await use.save(rt, scope_id, drafts, actor="test")).items]
        return ids

    out: list[str] = on_runtime(go)
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


def _rank(on_runtime: OnRuntime, scope_id: str, params: ranking.RankingParams) -> Ranked:
    async def go(rt: Runtime) -> Ranked:
        out = []
        for q in QUERIES:
            hits = await use.search_ranked(rt, scope_id, [Family.memory], query=q, limit=10, recall=False,
                                           params=params)
            out.append([(h.artifact["id"], h.score) for h in hits])
        return out

    res: Ranked = on_runtime(go)
    return res


def _lexical(on_runtime: OnRuntime, scope_id: str, ranked: Ranked) -> list[list[float]]:
    """The scope index's own lexical scores (BM25 with the scope's statistics, plus neighbours) of each ranked
    hit: the numbers the rank-based fused score is made from."""
    async def go(rt: Runtime) -> list[list[float]]:
        copy = await rt.indexes.copy(rt.graph, scope_id, None)
        params = scope_index.index_params(None, ranking.DEFAULT)
        pos = {d: i for i, d in enumerate(copy.ids)}
        return [[float(copy.lexical_scores(q, params)[pos[d]]) for d, _ in hits]
                for q, hits in zip(QUERIES, ranked, strict=True)]

    res: list[list[float]] = on_runtime(go)
    return res


def _context(on_runtime: OnRuntime, scope_id: str, params: ranking.RankingParams) -> list[list[str]]:
    """The context call's query-driven arm (`relevant_memories`) for each query: ids in order."""
    from service.usecases import context

    async def go(rt: Runtime) -> list[list[str]]:
        out = []
        for q in QUERIES:
            got = await context.assemble(rt, scope_id, surface="lazy", query=q, params=params)
            out.append([a.id for a in got.arms["relevant_memories"]])
        return out

    res: list[list[str]] = on_runtime(go)
    return res


def test_another_tenants_memories_change_nothing_in_a_scopes_ranking(client: TestClient, on_runtime: OnRuntime,
                                                                     raw: Driver) -> None:
    # `client`: the app's start-up applies the schema (the Lucene comparison needs the full-text index).
    gen = TextGen(seed=3)
    namespace, owner = unique("ns-small"), unique("o")
    mine = _scope(on_runtime, namespace, owner)
    texts = [gen.content() for _ in range(300)]
    _save(on_runtime, mine, texts)
    # Retention (recency of access) moves with the clock: the scores are compared without it (relevance alone,
    # exactly); the default ranking, retention included, is compared by ids and order.
    local = replace(ranking.DEFAULT, retention_boost=0.0)
    lucene = replace(local, scope_index=False)
    before, before_default = _rank(on_runtime, mine, local), _rank(on_runtime, mine, ranking.DEFAULT)
    before_lucene = _rank(on_runtime, mine, lucene)
    assert sum(len(r) for r in before) > 40 and sum(bool(r) for r in before) >= len(QUERIES) - 2
    bm25_before = _lexical(on_runtime, mine, before)
    assert len({round(x, 9) for r in bm25_before for x in r}) > 20  # graded BM25 scores, not a few ties

    # Another tenant (other namespace, other owner): half copies of this scope's own texts, half other text.
    # And another scope of the same owner: a scope's ranking is its own, not its tenant's either.
    other = _scope(on_runtime, unique("ns-big"))
    noise = TextGen(seed=11)
    half = OTHER_TENANT_ROWS // 2
    _save_raw(raw, other, [texts[i % len(texts)] for i in range(half)] + [noise.sentence() for _ in range(half)])
    sibling = _scope(on_runtime, namespace, owner)
    _save(on_runtime, sibling, [noise.content() for _ in range(300)], kind="fact")
    on_runtime.indexes.clear()  # rebuilt from Neo4j, not remembered from before

    after = _rank(on_runtime, mine, local)
    for q, b, a in zip(QUERIES, before, after, strict=True):
        assert a == b, f"{q!r}: the ranking moved"  # same ids, same order, same scores (exact floats)
    assert _lexical(on_runtime, mine, after) == bm25_before  # and the BM25 scores under them, exactly
    assert [[i for i, _ in r] for r in _rank(on_runtime, mine, ranking.DEFAULT)] == \
        [[i for i, _ in r] for r in before_default]
    # The test can fail: Lucene's index-wide statistics do move with the other tenant's rows.
    moved = _rank(on_runtime, mine, lucene)
    assert moved != before_lucene
    assert sum(a != b for a, b in zip(moved, before_lucene, strict=True)) >= len(QUERIES) // 3


def test_the_context_call_ranks_tenant_locally_too(client: TestClient, on_runtime: OnRuntime, raw: Driver) -> None:
    gen = TextGen(seed=5)
    mine = _scope(on_runtime, unique("ns-ctx"))
    texts = [gen.content() for _ in range(200)]
    _save(on_runtime, mine, texts)
    local = replace(ranking.DEFAULT, retention_boost=0.0)  # the context call counts recalls: retention moves
    before = _context(on_runtime, mine, local)
    assert sum(len(r) for r in before) > 30
    other = _scope(on_runtime, unique("ns-ctx-big"))
    _save_raw(raw, other, [texts[i % len(texts)] for i in range(2_000)])
    on_runtime.indexes.clear()
    assert _context(on_runtime, mine, local) == before


def test_the_copy_follows_saves_updates_and_deletes(scope: dict[str, Any], on_runtime: OnRuntime) -> None:
    sid = scope["id"]
    # Facts: no neighbouring episodes lend scores here (that lever is tested in tests/unit/test_lexical.py).
    [a, b] = _save(on_runtime, sid, ["the quarterly report is due friday", "lunch with the design team"], "fact")

    def found(q: str) -> list[str]:
        return [ids for ids, _ in _rank_one(on_runtime, sid, q)]

    assert found("quarterly") == [a]
    loads = on_runtime.indexes.loads
    assert found("quarterly") == [a] and on_runtime.indexes.loads == loads  # unchanged scope: no reload
    [c] = _save(on_runtime, sid, ["another quarterly review in march"], "fact")
    assert set(found("quarterly")) == {a, c}

    async def edit(rt: Runtime) -> None:
        await use.update(rt, sid, b, [Family.memory],
                         change_of(MemoryUpdate(content="dinner with the quarterly board"), 1), actor="test")
        await use.delete(rt, sid, a, [Family.memory], actor="test", detach=False, reason="test")

    on_runtime(edit)
    assert set(found("quarterly")) == {b, c}
    assert found("lunch") == []


def _rank_one(on_runtime: OnRuntime, scope_id: str, q: str) -> list[tuple[str, float]]:
    async def go(rt: Runtime) -> list[tuple[str, float]]:
        hits = await use.search_ranked(rt, scope_id, [Family.memory], query=q, limit=10, recall=False)
        return [(h.artifact["id"], h.score) for h in hits]

    out: list[tuple[str, float]] = on_runtime(go)
    return out


# ---- the copy brought up to date by a delta (ScopeCopy.extended) -----------------------------------------

async def _copy_and_full_build(rt: Runtime, sid: str) -> tuple[scope_index.ScopeCopy, scope_index.ScopeCopy]:
    """(the runtime's copy, as a search gets it; a full build from what Neo4j holds now)."""
    copy = await rt.indexes.copy(rt.graph, sid, None)
    version, rows = await rt.graph.read(recall_repo.scope_corpus, scope_id=sid, model=None)
    return copy, scope_index.ScopeCopy.build(scope_index._version(version, None), None, rows)


def test_after_every_write_the_copy_is_what_a_full_load_builds(scope: dict[str, Any], on_runtime: OnRuntime) -> None:
    """Random writes through the service, each followed by a search's copy: saves (one, or a batch), updates (of
    the tags only, or of the text) and deletes each bring the copy up to date without a reload; after every step
    the copy equals a full build of what Neo4j holds, so every ranking is the full load's."""
    sid, rnd, gen = scope["id"], random.Random(18), TextGen(18)
    kinds = ["episodic", "episodic", "semantic", "fact"]

    async def go(rt: Runtime) -> list[tuple[str, int, int]]:
        held: dict[str, int] = {}  # id -> revision

        async def save(n: int) -> None:
            drafts = [draft_of(MemoryCreate(kind=rnd.choice(kinds), tier="agent",  # type: ignore[arg-type]
                                            content=gen.content())) for _ in range(n)]
            for a in (await use.save(rt, sid, drafts, actor="test")).items:
                held[a.id] = a.revision

        async def update(**change: Any) -> None:
            aid = rnd.choice(sorted(held))
            a = await use.update(rt, sid, aid, [Family.memory], change_of(MemoryUpdate(**change), held[aid]),
                                 actor="test")
            held[aid] = a.revision

        await save(6)
        await rt.indexes.copy(rt.graph, sid, None)
        steps = []
        for _ in range(24):
            op = rnd.choice(["save", "save", "batch", "tags", "text", "delete"])
            loads, extends = rt.indexes.loads, rt.indexes.extends
            if op == "save":
                await save(1)
            elif op == "batch":
                await save(3)
            elif op == "tags":
                await update(tags=[f"t{rnd.randrange(100)}"])
            elif op == "text":
                await update(content=gen.content())
            else:
                aid = rnd.choice(sorted(held))
                await use.delete(rt, sid, aid, [Family.memory], actor="test", detach=True, reason="test")
                del held[aid]
            copy, full = await _copy_and_full_build(rt, sid)
            assert_same_copy(copy, full)
            for q in ("coffee morning", "deploy the database", "用户 喜欢", "weekend travel"):
                params = scope_index.IndexParams(neighbour_weight=0.5, neighbour_weight_2=0.25)
                assert copy.rank(q, None, ["memory"], 10, params) == full.rank(q, None, ["memory"], 10, params)
            steps.append((op, rt.indexes.loads - loads, rt.indexes.extends - extends))
        return steps

    steps: list[tuple[str, int, int]] = on_runtime(go)
    for op, loads, extends in steps:
        assert (loads, extends) == (0, 1), (op, steps)
    assert {op for op, _, _ in steps} == {"save", "batch", "tags", "text", "delete"}


def test_a_row_committed_after_a_newer_one_reloads_the_copy(scope: dict[str, Any], on_runtime: OnRuntime,
                                                            raw: Driver) -> None:
    """A write takes its updated_at before it runs, so it can commit after a newer write. Such a row (written raw
    here, 5 s older than the copy's version) sorts before the copy's last row: the copy is reloaded, and it holds
    the row."""
    sid = scope["id"]
    [first] = _save(on_runtime, sid, ["the first note about lisbon trams"], "fact")

    async def load(rt: Runtime) -> None:
        await rt.indexes.copy(rt.graph, sid, None)

    on_runtime(load)
    late = raw_props(MemoryCreate(kind="fact", tier="agent", content="a late note about zephyrquartz"),  # type: ignore[arg-type]
                     sid)
    raw.execute_query("MATCH (f:Artifact {id: $first}) CREATE (a:Artifact:Memory) SET a = $p, "
                      "a.created_at = f.created_at - duration({seconds: 5}), a.updated_at = f.updated_at - "
                      "duration({seconds: 5})", first=first, p=late)
    _save(on_runtime, sid, ["a newer note"], "fact")  # moves the version
    loads = on_runtime.indexes.loads

    async def check(rt: Runtime) -> None:
        copy, full = await _copy_and_full_build(rt, sid)
        assert_same_copy(copy, full)
        assert late["id"] in copy.ids

    on_runtime(check)
    assert on_runtime.indexes.loads == loads + 1
    assert [ids for ids, _ in _rank_one(on_runtime, sid, "zephyrquartz")] == [late["id"]]


def test_a_batch_in_the_look_back_is_not_read_again_whole(scope: dict[str, Any], on_runtime: OnRuntime,
                                                          monkeypatch: Any) -> None:
    """The copy looks back LOOKBACK_S before its version for writes that committed late. After a batch that window
    holds the whole batch: before, every search in the next minute read it again with its texts, and a window of
    more than a quarter of the copy (or 1,000 rows) reloaded the scope each time. Now the window comes as ids and
    stamps, the copy passes over the rows it holds as they are, and a save after a 1,500-row batch brings the copy
    one row."""
    sid = scope["id"]
    _save(on_runtime, sid, [f"note {i} about the tram" for i in range(1_500)], "fact")
    windows: list[int] = []  # rows in each look-back window read
    given: list[int] = []  # rows handed to ScopeCopy.extended
    window, extended = recall_repo.scope_window, scope_index.ScopeCopy.extended

    async def spy_window(tx: Any, **params: Any) -> list[dict[str, Any]]:
        rows = await window(tx, **params)
        windows.append(len(rows))
        return rows

    def spy_extended(self: scope_index.ScopeCopy, version: Any, rows: Any, gone: Any = ()) -> Any:
        given.append(len(rows))
        return extended(self, version, rows, gone)

    monkeypatch.setattr(recall_repo, "scope_window", spy_window)
    monkeypatch.setattr(scope_index.ScopeCopy, "extended", spy_extended)

    async def go(rt: Runtime) -> None:
        await rt.indexes.copy(rt.graph, sid, None)
        loads = rt.indexes.loads
        for i in range(3):
            await use.save(rt, sid, [draft_of(MemoryCreate(kind="fact", tier="agent",  # type: ignore[arg-type]
                                                           content=f"zephyrquartz {i}"))], actor="test")
            copy, full = await _copy_and_full_build(rt, sid)
            assert_same_copy(copy, full)
        assert rt.indexes.loads == loads

    on_runtime(go)
    assert windows == [1_500, 1_501, 1_502] and given == [1, 1, 1]


def test_an_update_committed_late_in_the_look_back_is_read_again_by_id(scope: dict[str, Any],
                                                                      on_runtime: OnRuntime, raw: Driver) -> None:
    """An update whose commit lands after the copy's version although its updated_at is not newer: the look-back
    window holds its id and stamp, the copy does not hold that stamp and reads the row again, whole, by id: it takes
    the new text without a reload."""
    sid = scope["id"]
    [old, _] = _save(on_runtime, sid, ["the first note about lisbon trams", "a second note"], "fact")

    async def load(rt: Runtime) -> None:
        await rt.indexes.copy(rt.graph, sid, None)

    on_runtime(load)
    _save(on_runtime, sid, ["a newer note"], "fact")  # the version moves past the late update's stamp
    raw.execute_query("MATCH (a:Artifact {id: $id}) SET a.content = 'now about zephyrquartz', "
                      "a.updated_at = a.updated_at + duration({nanoseconds: 1000})", id=old)
    loads, extends = on_runtime.indexes.loads, on_runtime.indexes.extends

    async def check(rt: Runtime) -> None:
        copy, full = await _copy_and_full_build(rt, sid)
        assert_same_copy(copy, full)

    on_runtime(check)
    assert (on_runtime.indexes.loads, on_runtime.indexes.extends) == (loads, extends + 1)
    assert [ids for ids, _ in _rank_one(on_runtime, sid, "zephyrquartz")] == [old]


def test_a_row_deleted_while_the_window_is_read_keeps_its_columns_aligned(scope: dict[str, Any],
                                                                          on_runtime: OnRuntime, raw: Driver) -> None:
    """Read-committed: a row deleted by another transaction while search/scope_window.cypher runs reads as nulls.
    collect() would drop those from one list and not another (the soak caught a search answering 500 from the
    mismatch); the query's list comprehensions keep the ids, created and updated of each row at one index. Here the
    query waits 1.5 s between its read and its answer (apoc.util.sleep) while a row is deleted and committed."""
    sid = scope["id"]
    ids = _save(on_runtime, sid, ["one tram", "two trams", "three trams"], "fact")
    query = cypher.compose("search/scope_window")
    slowed = query.replace("WITH collect(a) AS rows\n", "WITH collect(a) AS rows\nCALL apoc.util.sleep(1500)\n")
    assert slowed != query
    answer: dict[str, Any] = {}

    def read() -> None:
        answer.update(raw.execute_query(slowed, scope_id=sid, since=datetime.now(UTC) + timedelta(seconds=1),
                                        lookback=60.0).records[0].data())

    reader = threading.Thread(target=read)
    reader.start()
    time.sleep(0.5)
    raw.execute_query("MATCH (a:Artifact {id: $id}) DETACH DELETE a", id=ids[1])
    reader.join()
    assert len(answer["id"]) == len(answer["created"]) == len(answer["updated"]) == 3
    gone = answer["id"].index(None)
    assert answer["created"][gone] is None and answer["updated"][gone] is None
    assert sorted(i for i in answer["id"] if i is not None) == sorted([ids[0], ids[2]])


def test_the_rows_read_as_columns_are_the_rows_read_one_by_one(scope: dict[str, Any], on_graph: OnGraph,
                                                                 on_runtime: OnRuntime, client: TestClient,
                                                                 monkeypatch: Any) -> None:
    """fragment SCOPE_ROWS returns the scope in columns, SCOPE_CHUNK rows to a record; graph/recall.py turns them
    back into rows. Those rows (over several records, nulls kept: memories have no title) are the rows a query
    returning one row a record gives."""
    sid = scope["id"]
    _save(on_runtime, sid, [f"note {i} about the tram" for i in range(7)], "episodic")
    r = client.post(f"/v1/scopes/{sid}/knowledge", json={"title": "Trams", "body": "the tram page"})
    assert r.status_code == 201, r.text
    monkeypatch.setattr(recall_repo, "SCOPE_CHUNK", 3)
    one_by_one = ("MATCH (a:Artifact) WHERE a.scope_id = $scope_id AND a.family IN ['memory', 'knowledge', 'skill'] "
                  "RETURN a.id AS id, a.family AS family, a.kind AS kind, a.title AS title, a.content AS content, "
                  "null AS embedding, a.created_at.epochSeconds * 1000000000 + a.created_at.nanosecond AS created, "
                  "a.updated_at.epochSeconds * 1000000000 + a.updated_at.nanosecond AS updated, "
                  "a.occurred_at.epochSeconds * 1000000000 + a.occurred_at.nanosecond AS occurred, a.said AS said "
                  "ORDER BY a.created_at, a.id")

    async def both(graph: Graph) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        _, rows = await graph.read(recall_repo.scope_corpus, scope_id=sid, model=None)
        return rows, await graph.query(one_by_one, write=False, scope_id=sid)

    columns, rows = on_graph(both)
    assert len(rows) == 8 and columns == rows
    assert [r["title"] for r in columns].count(None) == 7
