"""docs/benchmarks.md as `make bench` writes it: a run rewrites the sections of the benchmarks it ran, keeps the
others, in the bench's order; a benchmark with no rows (it crashed) keeps its last section."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from bench import report
from bench.common import Row

ORDER = ["save_single", "search", "context"]
INFO = report.RunInfo(neo4j="5.26", sizes="Sizes()", command="make bench")


def _sections(text: str) -> dict[str, str]:
    return {m["name"]: m["body"] for m in report._SECTION.finditer(text)}


def test_a_partial_run_replaces_its_sections_and_keeps_the_rest(tmp_path: Path) -> None:
    page = tmp_path / "benchmarks.md"
    first = [Row("context", "p95", 3.0, 1.0, "ms", "<= 3x", True), Row("save_single", "p50", 2.0, 1.0, "ms")]
    report.write(first, ["save_single", "context"], ORDER, INFO, page=page,
                 now=lambda: datetime(2026, 1, 1, tzinfo=UTC))
    report.write([Row("context", "p95", 4.0, 1.0, "ms", "<= 3x", False)], ["context", "search"], ORDER, INFO,
                 page=page, now=lambda: datetime(2026, 2, 1, tzinfo=UTC))
    text = page.read_text()
    got = _sections(text)
    assert list(got) == ["save_single", "context"]  # search ran no rows (crashed): nothing written for it
    assert "2026-01-01" in got["save_single"] and "| p50 | 2.00 | 1.00 | ms | 2.00× | (info) |" in got["save_single"]
    assert "2026-02-01" in got["context"] and "4.00×" in got["context"] and "**MISS**" in got["context"]
    assert "3.00×" not in text and text.startswith(report.INTRO)
