"""save_batch: batches of memories through `service.usecases.artifacts.save` vs a raw `UNWIND … CREATE … SET a = r`
with the same property maps. Target: service throughput ≥ 0.5× raw.

Two informational rows split the service's cost: its own save.cypher run through the raw driver (the extra
graph work: a Revision and an Event per memory, the policy read, the returned maps) and screen() alone.
WARM batches per side run first and are not timed: on a fresh server the first batches pay for planning and
the JIT on both sides (2-4x slower), which is not the throughput the target is about."""

from __future__ import annotations

import time

import cypher
from bench.common import ACTOR, Context, Row, TextGen, interleaved, pct, progress, raw_props, throughput_row
from cognition.schemas.records import WriteBody
from graph import artifacts as repo
from service.gates.pipeline import screen
from service.usecases.artifacts import candidate, save, to_row
from service.usecases.drafts import draft_of
from service.usecases.runtime import utcnow

NAME = "save_batch"
MIN_RATIO = 0.5
RAW_UNWIND = "UNWIND $rows AS r CREATE (a:Artifact:Memory) SET a = r"
WARM = 3  # both sides: the first batches pay for query planning and the JIT (2-4x slower on a fresh server)


async def run(ctx: Context) -> list[Row]:
    scope_id = await ctx.new_scope(NAME)
    count, size = ctx.sizes.batches, ctx.sizes.batch_size
    gen = TextGen(42)
    batches: list[list[WriteBody]] = [[gen.memory() for _ in range(size)] for _ in range(WARM + count)]
    raw_batches = [[raw_props(b, scope_id) for b in batch] for batch in batches]

    async def service(i: int) -> None:
        out = await save(ctx.rt, scope_id, [draft_of(b) for b in batches[i]], actor=ACTOR)
        assert len(out.items) == size

    async def raw(i: int) -> None:
        await ctx.raw_write(RAW_UNWIND, rows=raw_batches[i])

    progress(f"{NAME}: warm-up {WARM} + {count} batches of {size} per side")
    await interleaved(WARM, service, raw)
    svc_ns, raw_ns = await interleaved(count, service, raw, start=WARM)
    rows = [
        throughput_row(NAME, f"throughput ({count} x {size})", count * size, sum(svc_ns), count * size,
                       sum(raw_ns), MIN_RATIO),
        *(Row(NAME, f"batch latency p{int(p * 100)}", pct(svc_ns, p), pct(raw_ns, p), "ms")
          for p in (0.5, 0.95)),
    ]

    # Diagnostics (not targets): where the service's time goes.
    progress(f"{NAME}: diagnostics (service save.cypher via the raw driver; screen() alone)")
    save_cypher = cypher.load("artifact/save")
    cy_ns, screen_ns = [], []
    for batch in batches[WARM:]:
        t0 = time.perf_counter_ns()
        screen([candidate(draft_of(b)) for b in batch], ctx.rt.thresholds)
        screen_ns.append(time.perf_counter_ns() - t0)
        now = utcnow()
        service_rows = [to_row(draft_of(b), scope_id=scope_id, now=now, actor=ACTOR) for b in batch]
        t0 = time.perf_counter_ns()
        await ctx.raw_write(save_cypher, scope_id=scope_id, rows=[repo.wire_row(r) for r in service_rows],
                            now=now.isoformat(), actor=ACTOR)
        cy_ns.append(time.perf_counter_ns() - t0)
    rows.append(Row(NAME, "save.cypher via raw driver (info)", count * size / (sum(cy_ns) / 1e9),
                    count * size / (sum(raw_ns) / 1e9), "rows/s"))
    rows.append(Row(NAME, f"screen() per batch of {size} p50 (info)", pct(screen_ns, 0.5), None, "ms"))
    return rows
