"""docs/benchmarks.md, written by `make bench`: one section per benchmark with the figures of its latest run, the date
and the machine it ran on. A run of some benchmarks (`--only`) replaces their sections and keeps the others; a
`--quick` (smoke) run writes nothing."""

from __future__ import annotations

import os
import platform
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bench.common import Row

PAGE = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"
_SECTION = re.compile(r"<!-- bench:(?P<name>[a-z_]+) -->\n(?P<body>.*?)<!-- /bench:(?P=name) -->\n", re.S)

INTRO = """# Benchmarks

`make bench` starts a Neo4j of its own (ports 27687/27474), runs each benchmark against a baseline measured in the
same run — the raw async driver doing the same work on the same database, or the cheaper call named in the row —
and prints the ratios with PASS / MISS against the targets (a MISS does not fail the run). Read the ratios: the
absolute times move with the machine. `make bench BENCH_ARGS=--quick` is a smoke run (it writes nothing here);
`--only NAME[,NAME]` runs some benchmarks and rewrites only their sections; `--sizes KEY=N,…` changes the sizes
(`python -m bench --help`).

This page is written by `make bench` (bench/report.py): each section below holds its benchmark's latest run.
"""


@dataclass(frozen=True, slots=True)
class RunInfo:
    """Where and how the figures were made."""

    neo4j: str
    sizes: str
    command: str

    @staticmethod
    def machine() -> str:
        model = ""
        try:
            for line in Path("/proc/cpuinfo").read_text().splitlines():
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
        except OSError:
            pass
        try:
            pages, size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
            memory = f", {pages * size / 2**30:.0f} GiB"
        except (ValueError, OSError):
            memory = ""
        return f"{os.cpu_count()} CPUs{' (' + model + ')' if model else ''}{memory}, {platform.system()}"


def _fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "–"
    return f"{value:,.0f}" if unit == "rows/s" else f"{value:,.2f}"


def section(name: str, rows: Sequence[Row], info: RunInfo, now: datetime) -> str:
    lines = [f"<!-- bench:{name} -->", f"## {name}", "",
             f"{now:%Y-%m-%d}, {RunInfo.machine()}, Python {platform.python_version()}, Neo4j {info.neo4j}; "
             f"`{info.command}`; sizes {info.sizes}.", "",
             "| metric | service | baseline | unit | ratio | target | verdict |",
             "|---|---:|---:|---|---:|---|---|"]
    for r in rows:
        verdict = "" if r.ok is None else ("PASS" if r.ok else "**MISS**")
        ratio = f"{r.ratio:.2f}×" if r.ratio is not None else "–"
        lines.append(f"| {r.metric} | {_fmt(r.service, r.unit)} | {_fmt(r.raw, r.unit)} | {r.unit} | {ratio} | "
                     f"{r.target or '(info)'} | {verdict} |")
    return "\n".join(lines) + "\n\n<!-- /bench:" + name + " -->\n"


def write(rows: Sequence[Row], names: Sequence[str], order: Sequence[str], info: RunInfo, *,
          page: Path = PAGE, now: Callable[[], datetime] = lambda: datetime.now(UTC)) -> Path:
    """Rewrite the sections of `names` (the benchmarks this run ran, crashed ones left as they were), keep the rest,
    in `order` (every benchmark's name, as `make bench` runs them)."""
    kept = {m["name"]: m.group(0) for m in _SECTION.finditer(page.read_text(encoding="utf-8"))} if page.exists() else {}
    at = now()
    for name in names:
        mine = [r for r in rows if r.bench == name]
        if mine:
            kept[name] = section(name, mine, info, at)
    body = [kept[n] for n in order if n in kept] + [s for n, s in kept.items() if n not in order]
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(INTRO + "\n" + "\n".join(body), encoding="utf-8")
    return page
