"""search: one scope filled (through the service's batch save) to each size in turn, then searches through
`service.artifacts.search` (recall counting on, as in production) vs the raw full-text call with the same
Lucene string the service builds. Target: service p95 ≤ 2× raw."""

from __future__ import annotations

import time

from bench.common import ACTOR, Context, Row, TextGen, interleaved, latency_rows, pct, progress
from graph.model import Family
from service.api.schemas import MAX_BATCH, _Write
from service.artifacts import lucene_query, save, search

NAME = "search"
MAX_RATIO = 2.0
RAW_SEARCH = ("CALL db.index.fulltext.queryNodes('artifact_text', $q) YIELD node, score "
              "RETURN node, score LIMIT 10")


async def fill(ctx: Context, scope_id: str, corpus: TextGen, have: int, size: int) -> float:
    """Save memories through the service until the scope holds `size`; returns rows/s."""
    t0 = time.perf_counter_ns()
    for start in range(have, size, MAX_BATCH):
        chunk: list[_Write] = [corpus.memory() for _ in range(min(MAX_BATCH, size - start))]
        await save(ctx.graph, scope_id, Family.memory, chunk, actor=ACTOR)
        if (start + len(chunk)) % 10_000 == 0:
            progress(f"{NAME}: filled {start + len(chunk)}/{size}")
    rate = (size - have) / max((time.perf_counter_ns() - t0) / 1e9, 1e-9)
    # The full-text index is eventually consistent (schema 0015): let it hold the whole fill before the raw
    # baseline queries it, so both sides search the same rows.
    await ctx.raw_read("CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()")
    return rate


async def measure(ctx: Context, scope_id: str, queries: list[str], warm: int, label: str) -> list[Row]:
    n = len(queries) - warm
    lucene = [lucene_query(q, scope_id=scope_id, families=[Family.memory.value], statuses=["active"])
              for q in queries]
    svc_hits: dict[int, int] = {}
    raw_hits: dict[int, int] = {}

    async def service(i: int, recall: bool = True) -> None:
        found = await search(ctx.graph, scope_id, [Family.memory], query=queries[i], recall=recall)
        svc_hits[i] = len(found)

    async def raw(i: int) -> None:
        raw_hits[i] = len((await ctx.raw_read(RAW_SEARCH, q=lucene[i])).records)

    async def service_no_recall(i: int) -> None:
        await service(i, recall=False)

    await interleaved(warm, service, raw)
    svc_ns, raw_ns = await interleaved(n, service, raw, start=warm)
    mismatched = sum(svc_hits[i] != raw_hits[i] for i in range(warm, warm + n))
    if mismatched:
        progress(f"{NAME}: WARNING {mismatched} queries found a different number of hits (service vs raw)")
    # Diagnostic only: the same searches without the recall write (not a production path).
    norecall_ns, _ = await interleaved(n, service_no_recall, raw, start=warm)

    rows = [Row(NAME, f"{label} latency p50 (n={n})", pct(svc_ns, 0.5), pct(raw_ns, 0.5), "ms")]
    rows += [r for r in latency_rows(NAME, f"{label} latency", svc_ns, raw_ns, MAX_RATIO)
             if "p95" in r.metric]
    rows += [Row(NAME, f"{label} recall=False p{int(p * 100)} (info)", pct(norecall_ns, p), pct(raw_ns, p),
                 "ms") for p in (0.5, 0.95)]
    rows.append(Row(NAME, f"{label} mean hits/query", sum(svc_hits.values()) / len(svc_hits),
                    sum(raw_hits.values()) / len(raw_hits), "hits"))
    return rows


async def run(ctx: Context) -> list[Row]:
    scope_id = await ctx.new_scope(NAME)
    corpus, asker = TextGen(42), TextGen(4242)
    n = ctx.sizes.queries
    warm = max(10, n // 10)
    rows: list[Row] = []
    have = 0
    for size in sorted(set(ctx.sizes.search)):
        rate = await fill(ctx, scope_id, corpus, have, size)
        have = size
        progress(f"{NAME}: {size} memories ({rate:,.0f} rows/s); warm-up {warm} + {n} searches per side")
        label = f"@{size / 1000:g}k"
        rows += await measure(ctx, scope_id, [asker.query() for _ in range(warm + n)], warm, label)
        rows.append(Row(NAME, f"{label} fill via service.save", rate, None, "rows/s"))
    return rows
