"""`python -m bench [--quick] [--only NAME[,NAME]] [--sizes KEY=N,...] [--no-page]`

Starts the managed `bench` Neo4j fresh (ports 27687/27474) — or uses COGNITION_BENCH_NEO4J_URI with
COGNITION_BENCH_NEO4J_PASSWORD (and optionally COGNITION_BENCH_NEO4J_USER) — applies the schema, runs the
benchmarks, prints one table, writes the sections of the benchmarks it ran into docs/benchmarks.md (not for
--quick or --no-page), and stops the instance it started. A MISS is reported, not an error: the exit code is
non-zero only when a benchmark crashes.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import platform
import sys
import time
import traceback
from collections.abc import Awaitable, Callable, Sequence

from bench import (
    agents,
    cold_copy,
    digest_pass,
    rate_limits,
    recall_gc,
    report,
    save_batch,
    save_http,
    save_single,
    scan,
    search,
    shapes,
    startup,
    time_views,
)
from bench.common import Context, Row, Sizes, progress
from graph.driver import Graph, Neo4jConfig
from graph.schema import apply_schema
from service import neo4j_local

BENCHES: dict[str, Callable[[Context], Awaitable[list[Row]]]] = {
    save_single.NAME: save_single.run,
    save_http.NAME: save_http.run,
    save_batch.NAME: save_batch.run,
    search.NAME: search.run,
    scan.NAME: scan.run,
    digest_pass.NAME: digest_pass.run,
    recall_gc.NAME_CONTEXT: recall_gc.run_context,
    recall_gc.NAME_HYBRID: recall_gc.run_hybrid,
    recall_gc.NAME_GC: recall_gc.run_gc_bench,
    shapes.NAME: shapes.run,
    agents.NAME: agents.run,
    startup.NAME: startup.run,
    cold_copy.NAME: cold_copy.run,
    time_views.NAME: time_views.run,
    rate_limits.NAME: rate_limits.run,
}


def parse(argv: Sequence[str] | None) -> tuple[argparse.Namespace, Sizes, list[str]]:
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small sizes: a smoke run in about two minutes")
    ap.add_argument("--only", metavar="NAME[,NAME]", help=f"run only these: {', '.join(BENCHES)}")
    ap.add_argument("--no-page", action="store_true", help="do not write docs/benchmarks.md")
    ap.add_argument("--sizes", metavar="KEY=N,...",
                    help="override sizes, e.g. single=300,batches=10,batch_size=1000,search=10000/100000,"
                         "queries=200,scan_texts=300,gated=200 (applied on top of --quick when given)")
    args = ap.parse_args(argv)
    sizes = Sizes.quick() if args.quick else Sizes()
    try:
        if args.sizes:
            sizes = sizes.override(args.sizes)
    except ValueError as exc:
        ap.error(str(exc))
    names = list(BENCHES)
    if args.only:
        names = [n.strip() for n in args.only.split(",") if n.strip()]
        unknown = [n for n in names if n not in BENCHES]
        if unknown:
            ap.error(f"--only: unknown {', '.join(unknown)}; choose from {', '.join(BENCHES)}")
    return args, sizes, names


def _fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit in ("rows/s",):
        return f"{value:,.0f}"
    return f"{value:,.2f}"


def table(rows: list[Row]) -> str:
    head = ("benchmark", "metric", "service", "baseline", "unit", "ratio", "target", "verdict")
    body = []
    for r in rows:
        ratio = r.ratio
        verdict = "" if r.ok is None else ("PASS" if r.ok else "MISS")
        body.append((r.bench, r.metric, _fmt(r.service, r.unit), _fmt(r.raw, r.unit), r.unit,
                     f"{ratio:.2f}x" if ratio is not None else "-", r.target or "(info)", verdict))
    widths = [max(len(h), *(len(b[i]) for b in body)) if body else len(h) for i, h in enumerate(head)]
    right = {2, 3, 5}

    def line(cells: Sequence[str]) -> str:
        pairs = enumerate(zip(cells, widths, strict=True))
        return "  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in pairs).rstrip()

    sep = "  ".join("-" * w for w in widths)
    return "\n".join([line(head), sep, *(line(b) for b in body)])


async def run_all(cfg: Neo4jConfig, sizes: Sizes, names: list[str]) -> tuple[list[Row], list[str], str]:
    graph = Graph.connect(cfg)
    rows: list[Row] = []
    crashed: list[str] = []
    version = "?"
    try:
        report = await apply_schema(graph)
        version = (await graph.query("CALL dbms.components() YIELD versions RETURN versions[0] AS v",
                                     write=False))[0]["v"]
        progress(f"schema v{report.version} applied; Neo4j {version} at {cfg.uri}")
        ctx = Context(graph, sizes, cfg=cfg)
        for name in names:
            t0 = time.perf_counter()
            try:
                rows += await BENCHES[name](ctx)
            except Exception:
                crashed.append(name)
                traceback.print_exc()
                progress(f"{name}: CRASHED")
            progress(f"{name}: done in {time.perf_counter() - t0:.1f} s")
    finally:
        await graph.close()
    return rows, crashed, str(version)


def main(argv: Sequence[str] | None = None) -> int:
    args, sizes, names = parse(argv)
    # The server's "label/property does not exist yet" notices on a fresh database are noise here.
    logging.getLogger("neo4j.notifications").setLevel(logging.ERROR)
    uri = os.environ.get("COGNITION_BENCH_NEO4J_URI")
    managed = not uri
    if uri and not os.environ.get("COGNITION_BENCH_NEO4J_PASSWORD"):
        print("COGNITION_BENCH_NEO4J_URI needs COGNITION_BENCH_NEO4J_PASSWORD", file=sys.stderr)
        return 2
    started = time.perf_counter()
    load_before = os.getloadavg()
    inst = neo4j_local.BENCH_INSTANCE
    try:
        if managed:
            progress(f"starting the bench Neo4j fresh ({inst.uri}, heap {inst.heap}, "
                     f"page cache {inst.pagecache})")
            cfg = Neo4jConfig(inst.uri, "neo4j", neo4j_local.start(inst, fresh=True))
        else:
            assert uri is not None
            cfg = Neo4jConfig(uri, os.environ.get("COGNITION_BENCH_NEO4J_USER", "neo4j"),
                              os.environ["COGNITION_BENCH_NEO4J_PASSWORD"])
        rows, crashed, neo4j_version = asyncio.run(run_all(cfg, sizes, names))
    finally:
        if managed:
            neo4j_local.stop(inst)
    elapsed = time.perf_counter() - started
    print()
    print(f"cognition bench — {'quick' if args.quick else 'full'} run, {elapsed:.0f} s; python "
          f"{platform.python_version()}, {os.cpu_count()} CPUs, load avg {load_before[0]:.2f} before / "
          f"{os.getloadavg()[0]:.2f} after")
    print(f"sizes: {sizes}")
    print("baseline = the raw async driver doing the same work on the same database "
          "(scan: the same save with screen() no-op'd in the harness)")
    print()
    print(table(rows))
    judged = [r for r in rows if r.ok is not None]
    print()
    print(f"{sum(bool(r.ok) for r in judged)}/{len(judged)} targets met"
          + (f"; CRASHED: {', '.join(crashed)}" if crashed else ""))
    if not (args.quick or args.no_page):
        command = "make bench" + (f" BENCH_ARGS='{' '.join(sys.argv[1:] if argv is None else argv)}'"
                                  if (sys.argv[1:] if argv is None else argv) else "")
        info = report.RunInfo(neo4j=neo4j_version, sizes=str(sizes), command=command)
        page = report.write(rows, [n for n in names if n not in crashed], list(BENCHES), info)
        print(f"wrote {page.relative_to(page.parent.parent)}")
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
