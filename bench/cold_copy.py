"""cold_copy: what one large scope costs a replica — a real `cognition serve` on the bench's Neo4j, one scope filled
raw (bench/recall_gc.py `fill_raw`) to each size in turn. At each size a served process is started fresh and timed
on its first search of that scope, which builds the scope's copy (service/search/scope_index.py) from Neo4j, then
on warm searches; then it is stopped and a second fresh process is timed on its first search again: a replica
restarted while Neo4j stays up, Neo4j's plans for the search queries already cached (the first process's first
search also waited for Neo4j to plan them: seconds on a large store). Reported: both first searches (target
≤ 3 s), the served process's RSS before and after the copy exists (target ≤ 2 GiB; the RSS growth is the copy
seen from outside), and warm search p50. The baseline, in the same run: the graph layer reading the same scope's
rows (`search/scope_corpus`, what any build must first transfer).

Sizes: `--sizes cold=100000/1000000` (cumulative, one scope)."""

from __future__ import annotations

import asyncio
import secrets
import statistics
import time
from pathlib import Path

from bench.common import Context, Row, TextGen, progress
from bench.recall_gc import fill_raw
from graph import recall as recall_repo
from tests.served import Served

NAME = "cold_copy"
MAX_COLD_S = 3.0
MAX_RSS = 2 * 2**30
WARM = 20


def _rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


def _served_search(served: Served, key: str, scope_id: str, queries: list[str]) -> tuple[float, list[float], int,
                                                                                       int]:
    with served.client(key, timeout=120) as c:
        idle = _rss(served.pid)
        t0 = time.perf_counter()
        r = c.post(f"/v1/scopes/{scope_id}/memories/search", json={"query": queries[0]})
        cold = time.perf_counter() - t0
        if r.status_code != 200:
            raise RuntimeError(f"search answered {r.status_code}: {r.text[:200]}")
        warm = []
        for q in queries[1:]:
            t0 = time.perf_counter()
            c.post(f"/v1/scopes/{scope_id}/memories/search", json={"query": q}).raise_for_status()
            warm.append(time.perf_counter() - t0)
        return cold, warm, idle, _rss(served.pid)


async def run(ctx: Context) -> list[Row]:
    if ctx.cfg is None:
        raise RuntimeError("cold_copy needs the bench's Neo4j settings (bench.common.Context.cfg)")
    key = "bench-" + secrets.token_urlsafe(24)
    scope_id = await ctx.new_scope(NAME)
    corpus, have, rows = TextGen(11), 0, []
    queries = [corpus.query() for _ in range(WARM + 1)]
    for n in ctx.sizes.cold:
        progress(f"{NAME}: filling the scope to {n:,} memories")
        await fill_raw(ctx, scope_id, n, corpus, have=have)
        have = n
        t0 = time.perf_counter()
        await ctx.graph.read(recall_repo.scope_corpus, scope_id=scope_id, model=None)
        raw_s = time.perf_counter() - t0
        firsts = []
        for attempt in range(2):
            served = Served(ctx.cfg, key)
            try:
                await asyncio.to_thread(served.start, 120.0)
                progress(f"{NAME}: {n:,}: first search on a fresh cognition serve ({attempt + 1} of 2), then "
                         f"{WARM} warm")
                cold, warm, idle, rss = await asyncio.to_thread(_served_search, served, key, scope_id, queries)
                firsts.append(cold)
            finally:
                served.stop()
        cold, restarted = firsts
        rows += [Row(NAME, f"cold first search at {n:,} vs raw read of the scope's rows", round(cold * 1000, 1),
                     round(raw_s * 1000, 1), "ms", f"<= {MAX_COLD_S * 1000:.0f} ms", cold <= MAX_COLD_S),
                 Row(NAME, f"the same after a replica restart (plans cached) at {n:,}", round(restarted * 1000, 1),
                     round(raw_s * 1000, 1), "ms", f"<= {MAX_COLD_S * 1000:.0f} ms", restarted <= MAX_COLD_S),
                 Row(NAME, f"served RSS with the copy at {n:,}", round(rss / 2**20, 1), None, "MiB",
                     f"<= {MAX_RSS // 2**20} MiB", rss <= MAX_RSS),
                 Row(NAME, f"served RSS before the first search at {n:,}", round(idle / 2**20, 1), None, "MiB"),
                 Row(NAME, f"warm search p50 at {n:,}", round(statistics.median(warm) * 1000, 2), None, "ms")]
    return rows
