"""save_single: one memory per `service.usecases.artifacts.save` call vs one raw `CREATE` transaction per memory.
Target: service p50 and p95 ≤ 1.5× raw. And (info) the same saves vs a one-node raw commit
(`CREATE (:BenchProbe {i: $i})`: no index, no full-text, the trigger still runs) on the same server, in the
same run: what a save costs above a bare commit."""

from __future__ import annotations

from bench.common import ACTOR, Context, Row, TextGen, interleaved, latency_rows, pct, progress, raw_props
from service.usecases.artifacts import save
from service.usecases.drafts import draft_of

NAME = "save_single"
MAX_RATIO = 1.5
RAW_CREATE = "CREATE (a:Artifact:Memory $props)"
RAW_COMMIT = "CREATE (:BenchProbe {i: $i})"


async def run(ctx: Context) -> list[Row]:
    scope_id = await ctx.new_scope(NAME)
    n = ctx.sizes.single
    warm = max(10, n // 10)
    gen = TextGen(42)
    bodies = [gen.memory() for _ in range(warm + n)]
    props = [raw_props(b, scope_id) for b in bodies]  # the raw side's input, built outside its timer

    async def service(i: int) -> None:
        await save(ctx.rt, scope_id, [draft_of(bodies[i])], actor=ACTOR)

    async def raw(i: int) -> None:
        await ctx.raw_write(RAW_CREATE, props=props[i])

    progress(f"{NAME}: warm-up {warm} + {n} saves per side")
    await interleaved(warm, service, raw)
    svc_ns, raw_ns = await interleaved(n, service, raw, start=warm)
    rows = latency_rows(NAME, "save latency", svc_ns, raw_ns, MAX_RATIO)

    bare = [gen.memory() for _ in range(n)]

    async def service_again(i: int) -> None:
        await save(ctx.rt, scope_id, [draft_of(bare[i])], actor=ACTOR)

    async def commit(i: int) -> None:
        await ctx.raw_write(RAW_COMMIT, i=i)

    svc_ns, commit_ns = await interleaved(n, service_again, commit)
    rows += [Row(NAME, f"save vs one-node raw commit p{int(p * 100)} (info)", pct(svc_ns, p), pct(commit_ns, p),
                 "ms") for p in (0.5, 0.95)]
    await ctx.raw_write("MATCH (p:BenchProbe) DELETE p")
    return rows
