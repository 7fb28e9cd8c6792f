"""save_single: one memory per `service.artifacts.save` call vs one raw `CREATE` transaction per memory.
Target: service p50 and p95 ≤ 1.5× raw."""

from __future__ import annotations

from bench.common import ACTOR, Context, Row, TextGen, interleaved, latency_rows, progress, raw_props
from graph.model import Family
from service.artifacts import save

NAME = "save_single"
MAX_RATIO = 1.5
RAW_CREATE = "CREATE (a:Artifact:Memory $props)"


async def run(ctx: Context) -> list[Row]:
    scope_id = await ctx.new_scope(NAME)
    n = ctx.sizes.single
    warm = max(10, n // 10)
    gen = TextGen(42)
    bodies = [gen.memory() for _ in range(warm + n)]
    props = [raw_props(b, scope_id) for b in bodies]  # the raw side's input, built outside its timer

    async def service(i: int) -> None:
        await save(ctx.graph, scope_id, Family.memory, [bodies[i]], actor=ACTOR)

    async def raw(i: int) -> None:
        await ctx.raw_write(RAW_CREATE, props=props[i])

    progress(f"{NAME}: warm-up {warm} + {n} saves per side")
    await interleaved(warm, service, raw)
    svc_ns, raw_ns = await interleaved(n, service, raw, start=warm)
    return latency_rows(NAME, "save latency", svc_ns, raw_ns, MAX_RATIO)
