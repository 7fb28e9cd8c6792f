"""context, hybrid search and GC at scale.

- context: all nine arms assembled by `service.usecases.context.assemble` (one round trip, recalls counted) in a scope
  of N memories, vs the raw Cypher of the same nine arms run back to back (nine round trips; each arm's
  branch is cut from the composed `context/assemble` query, so both sides select with the same Cypher).
  Target ≤ 1.2×. And the same call vs ONE raw full-text query (the Lucene string the service
  builds for the call's `relevant_memories` arm, top 10), p95 ≤ 3×: the per-turn call costs about a search.
- hybrid: explicit search with the embedder on (full-text + exact cosine, fused) vs full-text only, p95, in a
  scope of `hybrid` memories embedded at save time (info: the price of vectors).
- gc: one GC archive pass (TTL batch + capacity eviction by RetentionScore) over a partition of N memories,
  beside the bare count of the partition's memories (info, and ≤ 3× the count query is not expected: it ranks
  every row).
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import cypher
from bench.common import (
    ACTOR,
    RAW_FILL,
    Context,
    Row,
    TextGen,
    interleaved,
    latency_rows,
    pct,
    progress,
    raw_props,
    timed,
)
from bench.search import RAW_SEARCH
from digest.gc import GCConfig, run_gc
from graph.model import Family
from service.search import embedding, scope_index, temporal
from service.search.ranking import lucene_query
from service.usecases import context as ctx_use
from service.usecases.artifacts import new_id, save, search
from service.usecases.drafts import draft_of, sha256
from service.usecases.runtime import utcnow

NAME_CONTEXT, NAME_HYBRID, NAME_GC = "context", "hybrid", "gc"
CONTEXT_VS_FULLTEXT = 3.0  # context p95 <= 3x one raw full-text query at the same size
CHUNK = 5_000


TEMPLATES = 2_000  # distinct service-made property maps a fill cycles through (kind, tier, trust, tags, subject)


async def fill_raw(ctx: Context, scope_id: str, n: int, corpus: TextGen, *, spread_days: int = 0,
                    have: int = 0, content: Callable[[], str] | None = None,
                    bend: Callable[[dict[str, Any], int], None] | None = None, one_time: bool = False,
                    templates: int = TEMPLATES) -> None:
    """Memories `have`..`n` of the scope, with exactly the service's properties, written raw (batched UNWIND).

    The service's property map (service.usecases.artifacts.to_row via raw_props) costs about a millisecond a row in
    Python, which at a million rows is the fill's whole time; so TEMPLATES maps are made that way and each row
    takes one of them (in order: the mix of kinds, tiers and trust is the generator's) with its own id, its own
    freshly generated content and hash and the chunk's timestamps. `content` makes a row's text instead of the
    corpus, `bend(props, i)` changes row i's properties last (bench/shapes.py, bench/time_views.py), `one_time` gives
    every row one timestamp."""
    rnd = random.Random(n)
    maps = [raw_props(corpus.memory(), scope_id) for _ in range(min(templates, n - have))]
    stamp = utcnow()
    for start in range(have, n, CHUNK):
        now = utcnow()
        rows = []
        for i in range(start, min(start + CHUNK, n)):
            props = dict(maps[i % len(maps)])
            text = content() if content is not None else corpus.content()
            at = stamp if one_time else now + timedelta(microseconds=i - start)  # distinct, as one utcnow() a row
            props.update(id=new_id(), content=text, content_hash=sha256(text),
                         created_at=at, accessed_at=at, updated_at=at, occurred_at=at, valid_from=at)
            if spread_days:
                at = now - timedelta(days=rnd.uniform(0, spread_days))
                props.update(created_at=at, accessed_at=at, updated_at=at, occurred_at=at, valid_from=at,
                             recall_count=rnd.randrange(0, 20), trust=rnd.random())
            if bend is not None:
                bend(props, i)
            if "said" in props:  # what the save stores: the times this row's own text names
                props["said"] = temporal.said_of(text, temporal.ns(props["occurred_at"]))
            rows.append(props)
        await ctx.raw_write(RAW_FILL, rows=rows)
        if (start + len(rows)) % 50_000 == 0 or start + len(rows) == n:
            progress(f"filled {start + len(rows):,}/{n:,}")


def _arm_queries() -> dict[str, str]:
    """Each branch of the composed context query, as a query of its own: one an eager or lazy arm, and one
    (`retention`) the four RetentionScore arms, which share a pipeline."""
    text = cypher.compose("context/assemble")
    body = text[text.index("OPTIONAL CALL (s) {") + len("OPTIONAL CALL (s) {"):text.index("\n}\nWITH s, [x IN")]
    out = {}
    # Branches are separated by a UNION ALL followed by the next branch's `// name:` comment (the hybrid-rank
    # fragment inside relevant_memories, and the retention pipeline, have UNION ALLs of their own).
    for branch in re.split(r"\n  UNION ALL\n(?=  // [a-z_]+:)", body):
        name = re.match(r"\s*// ([a-z_]+):", branch)
        if name:
            out[name.group(1)] = ("OPTIONAL MATCH (s:Scope {id: $scope_id}) WHERE s.deleting IS NULL\n"
                                  f"CALL (s) {{\n{branch}\n}}\nRETURN arm, items")
    return out


def _db_hits(plan: dict[str, Any]) -> int:
    return int(plan.get("dbHits", 0)) + sum(_db_hits(c) for c in plan.get("children", []))


async def run_context(ctx: Context) -> list[Row]:
    """Each size of `sizes.context` in turn, one scope filled cumulatively (10k, 100k, 1M: the growth)."""
    corpus = TextGen(7)
    sid = await ctx.new_scope(NAME_CONTEXT)
    arms = _arm_queries()
    rows: list[Row] = []
    have = 0
    for size in sorted(set(ctx.sizes.context)):
        t0 = time.perf_counter()
        await fill_raw(ctx, sid, size, corpus, have=have)
        progress(f"{NAME_CONTEXT}: {size:,} memories ({(size - have) / (time.perf_counter() - t0):,.0f} rows/s)")
        have = size
        rows += await _measure_context(ctx, sid, size, corpus, arms)
    return rows


async def _measure_context(ctx: Context, sid: str, size: int, corpus: TextGen, arms: dict[str, str]) -> list[Row]:
    filled = time.monotonic()  # the fill's last write: just now
    queries = [corpus.query() for _ in range(ctx.sizes.queries + 10)]

    async def service(i: int) -> None:
        await ctx_use.assemble(ctx.rt, sid, surface="all", query=queries[i])

    # the raw side runs with the parameters the service sends (those of the first query)
    captured: dict[str, Any] = await ctx_use.query_params(ctx.rt, sid, surface="all", query=queries[0])
    # Info: what a call pays when Neo4j has no plan for the query (its first call, a statistics replan): the
    # plan alone, timed as an EXPLAIN (not cached) right after the query caches are cleared.
    await ctx.raw_write("CALL db.clearQueryCaches()")
    t0 = time.perf_counter()
    await ctx.raw_write("EXPLAIN " + cypher.compose("context/assemble"), **captured)
    rows = [Row(NAME_CONTEXT, f"planning the context query (EXPLAIN, query caches cleared), {size:,} memories "
                "(info)", (time.perf_counter() - t0) * 1000, None, "ms")]
    await service(0)

    async def raw(i: int) -> None:
        for q in arms.values():
            await ctx.raw_read(q, **captured)

    lucene = [lucene_query(q, scope_id=sid, families=[Family.memory.value], statuses=["active"]) for q in queries]

    async def fulltext(i: int) -> None:
        await ctx.raw_read(RAW_SEARCH, q=lucene[i])

    async def after_save(n: int, label: str) -> list[Row]:
        """Info: an agent's loop, n times a save and then a context call with a query (the saves untimed; they add n
        memories to the scope). The save moves the scope's version, so the call brings the scope's copy up to date
        (service/search/scope_index.py: by a delta; a full reload was 12-16 s at 100,000)."""
        after_ns, ft_after_ns = [], []
        for i in range(1, n + 1):
            await save(ctx.rt, sid, [draft_of(corpus.memory())], actor=ACTOR)
            after_ns.append(await timed(service, i))
            ft_after_ns.append(await timed(fulltext, i))
        return [Row(NAME_CONTEXT, f"9 arms right after a save{label} vs 1 full-text query, {size:,} memories "
                    f"p{int(p * 100)} (n={n}, info)", pct(after_ns, p), pct(ft_after_ns, p), "ms")
                for p in (0.50, 0.95)]

    await interleaved(10, service, fulltext, start=1)  # warm the full-text side's plan and caches too
    # Within LOOKBACK_S of the fill, the copy's look-back window holds the fill's rows: each delta reads their ids and
    # stamps again (search/scope_window.cypher).
    rows += await after_save(20, f", within {scope_index.LOOKBACK_S:.0f} s of the fill")
    svc_ns, raw_ns = await interleaved(ctx.sizes.queries, service, raw, start=1)
    rows += latency_rows(NAME_CONTEXT, f"9 arms, {size:,} memories", svc_ns, raw_ns, 1.2,
                        raw_label=f"the {len(arms)} raw branch queries")
    svc_ns, ft_ns = await interleaved(ctx.sizes.queries, service, fulltext, start=1)
    rows += latency_rows(NAME_CONTEXT, f"9 arms vs 1 full-text query, {size:,} memories", svc_ns, ft_ns,
                         CONTEXT_VS_FULLTEXT, raw_label="1 raw full-text query")
    # The agent's loop once the fill has left the look-back window: the steady state.
    await asyncio.sleep(max(0.0, scope_index.LOOKBACK_S + 1.0 - (time.monotonic() - filled)))
    rows += await after_save(ctx.sizes.queries, "")
    # Info: the database work of one call (the composed query, PROFILE; its recalls count like any call's).
    params = await ctx_use.query_params(ctx.rt, sid, surface="all", query=queries[1], on=ctx.graph)
    plan = (await ctx.raw_write("PROFILE " + cypher.compose("context/assemble"), **params)).summary.profile
    rows.append(Row(NAME_CONTEXT, f"db hits of one call (PROFILE), {size:,} memories (info)", _db_hits(plan),
                    None, "hits"))
    return rows


async def run_hybrid(ctx: Context) -> list[Row]:
    model = embedding.make_embedder("use-multilingual")
    if model is None:  # pragma: no cover
        return []
    corpus = TextGen(11)
    sid = await ctx.new_scope(NAME_HYBRID)
    n = ctx.sizes.hybrid
    with_vectors = ctx.rt.using(embedder=model)
    for start in range(0, n, 500):
        await save(with_vectors, sid, [draft_of(corpus.memory()) for _ in range(min(500, n - start))], actor=ACTOR)
        progress(f"hybrid: saved+embedded {start + 500:,}/{n:,}")
    queries = [corpus.query() for _ in range(ctx.sizes.queries + 10)]

    async def hybrid(i: int) -> None:
        await search(with_vectors, sid, [Family.memory], query=queries[i])

    async def fulltext(i: int) -> None:
        await search(ctx.rt, sid, [Family.memory], query=queries[i])

    await interleaved(10, hybrid, fulltext)
    h_ns, f_ns = await interleaved(ctx.sizes.queries, hybrid, fulltext, start=10)
    return [Row(NAME_HYBRID, f"search p{int(p * 100)}, {n:,} embedded memories (hybrid vs full-text only)",
                pct(h_ns, p), pct(f_ns, p), "ms") for p in (0.5, 0.95)]


async def run_gc_bench(ctx: Context) -> list[Row]:
    corpus = TextGen(13)
    n = ctx.sizes.gc
    owner = f"gc-{ctx.run_id}"
    from service.usecases.scopes import create_scope

    scope = await create_scope(ctx.rt, namespace="bench", cognitive_owner=owner, name="gc", actor=ACTOR)
    await fill_raw(ctx, str(scope["id"]), n, corpus, spread_days=60)
    t0 = time.perf_counter()
    count = await ctx.raw_read("MATCH (s:Scope {namespace: 'bench', cognitive_owner: $o}) "
                               "MATCH (a:Artifact {scope_id: s.id}) WHERE a.family = 'memory' AND a.status = 'active' "
                               "RETURN count(a) AS n", o=owner)
    count_s = time.perf_counter() - t0
    cfg = GCConfig(max_entries=int(n * 0.9), ttl_batch=500)
    t0 = time.perf_counter()
    out = await run_gc(ctx.graph, namespace="bench", cognitive_owner=owner, actor=ACTOR, config=cfg)
    gc_s = time.perf_counter() - t0
    rules: dict[str, int] = {}
    for d in out["decisions"]:
        rules[d["rule"]] = rules.get(d["rule"], 0) + 1
    assert count.records[0]["n"] == n
    return [Row(NAME_GC, f"GC archive pass, {n:,} memories ({', '.join(f'{k}={v:,}' for k, v in rules.items())})",
                gc_s * 1000, count_s * 1000, "ms")]
