"""shapes: the context call (each surface) and search on scopes shaped as real stores are, not only the bench's
mix, at `sizes.shapes` memories each (100,000 by default), each against ONE raw full-text query in the same run
(the Lucene string the service builds for the call, top 10).

Shapes (each its own scope, written raw with the service's property map, bench.common.raw_props):
- mixed: the bench's mix (kinds, tiers, trust, tags drawn at random; distinct timestamps);
- imported: one batch from another tool: every row a fact of tier agent, trust 0.5, one timestamp, no recalls
  (ties on every sort key; no profile, no eager kinds);
- preferences_tied: every row a role-tier preference, trust 0.5, one timestamp (ties in the retention arms);
- eager_tied: constraints, instructions, environment and episodes, one trust, one timestamp;
- dominant: 99% observational memories;
- many_tags: 30 tags a row;
- long_texts: 1,500 characters a row;
- chinese: Chinese text only, asked in Chinese (one to three words run together, as a user types them; the mix's
  queries are mostly English and would find nothing, leaving the raw query an empty seek).

Target: every shape's context p95 ≤ 3× one raw full-text query (CONTEXT_VS_FULLTEXT, as the context bench), and
search p95 ≤ 2× (the search bench's). Each scope's first query-bearing call builds its copy in the scope index; that
call is untimed, and timing starts once the fill has left the copy's look-back window (the steady state: the
context bench times the window after a fill)."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

from bench.common import EN_WORDS, ZH_WORDS, Context, Row, TextGen, interleaved, latency_rows, progress
from bench.recall_gc import CONTEXT_VS_FULLTEXT, fill_raw
from bench.search import MAX_RATIO as SEARCH_VS_FULLTEXT
from bench.search import RAW_SEARCH
from graph.model import Family
from service.search import scope_index
from service.search.ranking import lucene_query
from service.usecases import context as ctx_use
from service.usecases.artifacts import search

NAME = "shapes"
SHAPES = ("mixed", "imported", "preferences_tied", "eager_tied", "dominant", "many_tags", "long_texts", "chinese")
SURFACES = ("eager", "lazy", "cold_start", "all")
TEMPLATES = 500


def _shape(shape: str, props: dict[str, Any], i: int, rnd: random.Random) -> None:
    """Bend one row of the bench's mix into the shape."""
    if shape == "imported":
        props.update(kind="fact", tier="agent", trust=0.5)
    elif shape == "preferences_tied":
        props.update(kind="preference", tier="role", trust=0.5)
    elif shape == "eager_tied":
        props.update(kind=("constraint", "instruction", "environment", "episodic")[i % 4], trust=0.9)
    elif shape == "dominant" and i % 100:
        props["kind"] = "observational"
    elif shape == "many_tags":
        props["tags"] = rnd.sample(EN_WORDS, 30)


def _content(shape: str, corpus: TextGen, rnd: random.Random) -> str:
    if shape == "long_texts":
        text = corpus.content()
        while len(text) < 1_500:
            text += " " + corpus.content()
        return text[:1_500]
    if shape == "chinese":
        return "".join(rnd.choice(ZH_WORDS) for _ in range(rnd.randint(8, 40))) + "。"
    return corpus.content()


def _query(shape: str, gen: TextGen) -> str:
    if shape == "chinese":
        return "".join(gen.rnd.choice(ZH_WORDS) for _ in range(gen.rnd.randint(1, 3)))
    return gen.query()


async def _fill(ctx: Context, shape: str, scope_id: str, n: int) -> None:
    corpus, rnd = TextGen(SHAPES.index(shape)), random.Random(shape)
    await fill_raw(ctx, scope_id, n, corpus, templates=TEMPLATES, content=lambda: _content(shape, corpus, rnd),
                    bend=lambda props, i: _shape(shape, props, i, rnd),
                    one_time=shape in ("imported", "preferences_tied", "eager_tied"))
    progress(f"{NAME}: {shape}: {n:,} memories")


async def run(ctx: Context) -> list[Row]:
    n = ctx.sizes.shapes
    scopes = {}
    for shape in SHAPES:
        scopes[shape] = await ctx.new_scope(f"{NAME}-{shape}")
        await _fill(ctx, shape, scopes[shape], n)
    filled = time.monotonic()
    rows: list[Row] = []
    for shape in SHAPES:
        rows += await _measure(ctx, shape, scopes[shape], n, filled)
    return rows


async def _measure(ctx: Context, shape: str, sid: str, n: int, filled: float) -> list[Row]:
    gen = TextGen(100 + SHAPES.index(shape))
    queries = [_query(shape, gen) for _ in range(ctx.sizes.shape_queries + 5)]
    lucene = [lucene_query(q, scope_id=sid, families=[Family.memory.value], statuses=["active"]) for q in queries]

    async def fulltext(i: int) -> None:
        await ctx.raw_read(RAW_SEARCH, q=lucene[i])

    async def searched(i: int) -> None:
        await search(ctx.rt, sid, [Family.memory], query=queries[i])

    # the copy is built on the scope's first query-bearing call (untimed), then the fill leaves the look-back
    await searched(0)
    await asyncio.sleep(max(0.0, scope_index.LOOKBACK_S + 1.0 - (time.monotonic() - filled)))
    rows: list[Row] = []
    for surface in SURFACES:
        async def call(i: int, surface: str = surface) -> None:
            await ctx_use.assemble(ctx.rt, sid, surface=surface, query=queries[i])

        await interleaved(3, call, fulltext, start=1)  # the plan and caches, both sides
        svc_ns, ft_ns = await interleaved(ctx.sizes.shape_queries, call, fulltext, start=5)
        rows += latency_rows(NAME, f"{shape}: context {surface} vs 1 full-text query, {n:,} memories", svc_ns,
                             ft_ns, CONTEXT_VS_FULLTEXT, raw_label="1 raw full-text query")
    svc_ns, ft_ns = await interleaved(ctx.sizes.shape_queries, searched, fulltext, start=5)
    rows += latency_rows(NAME, f"{shape}: search vs 1 full-text query, {n:,} memories", svc_ns, ft_ns,
                         SEARCH_VS_FULLTEXT, raw_label="1 raw full-text query")
    progress(f"{NAME}: {shape} measured")
    return rows
