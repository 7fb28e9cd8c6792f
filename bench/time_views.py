"""as_of: reading at a moment of valid time costs about what reading current truth costs (docs/time.md).

One scope of `sizes.as_of` memories, written raw with exactly the service's properties, whose event and valid times
spread over `SPREAD_DAYS` days, one in `SUPERSEDED` of them superseded (its validity closed at a later record's
start) — so a moment in the past finds some records not yet valid and some already replaced. Then, interleaved:

- explicit search with `as_of` a week back vs the same search at the current time (target ≤ 1.3× at p50 and p95);
- the context call (all nine arms, a query) with the same `as_of` vs at the current time (≤ 1.3×);
- info: the same two a month back (`SPREAD_DAYS` / 2 of the spread is later), where more rows are not yet valid.
"""

from __future__ import annotations

import random
import time
from datetime import timedelta
from typing import Any

from bench.common import Context, Row, TextGen, interleaved, latency_rows, progress
from bench.recall_gc import fill_raw
from graph.model import Family
from service.usecases import context as ctx_use
from service.usecases.artifacts import search
from service.usecases.runtime import utcnow
from service.usecases.timeview import TimeView

NAME = "as_of"
AS_OF_VS_NOW = 1.3
SPREAD_DAYS = 60
SUPERSEDED = 10  # one record in this many has a closed validity


async def run(ctx: Context) -> list[Row]:
    corpus = TextGen(17)
    sid = await ctx.new_scope(NAME)
    n = ctx.sizes.as_of
    start = utcnow()
    rnd = random.Random(n)

    def bend(props: dict[str, Any], i: int) -> None:
        happened = start - timedelta(days=rnd.uniform(0, SPREAD_DAYS))
        props.update(occurred_at=happened, valid_from=happened, valid_until=None, conflicted=False)
        if i % SUPERSEDED == 0:
            props.update(valid_until=happened + timedelta(days=rnd.uniform(0.5, 20)), conflicted=True)

    t0 = time.perf_counter()
    await fill_raw(ctx, sid, n, corpus, spread_days=SPREAD_DAYS, bend=bend)
    progress(f"{NAME}: {n:,} memories ({n / (time.perf_counter() - t0):,.0f} rows/s)")
    queries = [corpus.query() for _ in range(ctx.sizes.queries + 10)]
    rows: list[Row] = []
    for label, back, target in (("a week back", 7, AS_OF_VS_NOW), ("a month back", SPREAD_DAYS // 2, None)):
        view = TimeView(as_of=utcnow() - timedelta(days=back))

        async def search_at(i: int, view: TimeView = view) -> None:
            await search(ctx.rt, sid, [Family.memory], query=queries[i], view=view)

        async def search_now(i: int) -> None:
            await search(ctx.rt, sid, [Family.memory], query=queries[i])

        async def context_at(i: int, view: TimeView = view) -> None:
            await ctx_use.assemble(ctx.rt, sid, surface="all", query=queries[i], view=view)

        async def context_now(i: int) -> None:
            await ctx_use.assemble(ctx.rt, sid, surface="all", query=queries[i])

        await interleaved(10, search_at, search_now)  # the plans and the scope's copy, warm on both sides
        await interleaved(10, context_at, context_now)
        for what, at_, now_ in (("search", search_at, search_now), ("context, 9 arms", context_at, context_now)):
            svc_ns, now_ns = await interleaved(ctx.sizes.queries, at_, now_, start=10)
            found = latency_rows(NAME, f"{what} as_of {label} vs now, {n:,} memories", svc_ns, now_ns,
                                 target or AS_OF_VS_NOW, raw_label="the same call at the current time")
            if target is None:
                for r in found:
                    r.target, r.ok, r.metric = None, None, r.metric + " (info)"
            rows += found
    return rows
