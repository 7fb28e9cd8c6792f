"""Why vector ranking scans one scope exactly instead of over-fetching from the (global) vector index: the
measurement behind the choice (service/search/ranking.py), small enough for every test run. Run with `-s` for the
table; the README quotes a larger run (20,000 + 2,000 + 200 rows)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator

import numpy as np
import pytest
from neo4j import Driver

EXACT = """MATCH (a:VecProbe) WHERE a.scope_id = $sc
WITH a, vector.similarity.cosine(a.embedding, $q) AS sim ORDER BY sim DESC, a.id LIMIT $k RETURN a.id AS id"""
ANN = """CALL db.index.vector.queryNodes('vecprobe_embedding', $fetch, $q) YIELD node AS a, score
WHERE a.scope_id = $sc RETURN a.id AS id ORDER BY score DESC LIMIT $k"""
SIZES = {"large": 4000, "small": 150}  # two tenants sharing one index
K, DIM = 20, 512


@pytest.fixture
def probes(raw: Driver) -> Iterator[np.random.Generator]:
    rng = np.random.default_rng(7)
    with raw.session() as s:
        s.run("CREATE INDEX vecprobe_scope IF NOT EXISTS FOR (n:VecProbe) ON (n.scope_id)").consume()
        s.run("CREATE VECTOR INDEX vecprobe_embedding IF NOT EXISTS FOR (n:VecProbe) ON n.embedding OPTIONS "
              "{indexConfig: {`vector.dimensions`: 512, `vector.similarity_function`: 'cosine'}}").consume()
    for sc, n in SIZES.items():
        for start in range(0, n, 1000):
            v = rng.standard_normal((min(1000, n - start), DIM))
            v /= np.linalg.norm(v, axis=1, keepdims=True)
            rows = [{"id": f"{sc}-{start + j}", "e": row.tolist()} for j, row in enumerate(v)]
            raw.execute_query("UNWIND $rows AS r "
                              "CREATE (:VecProbe {id: r.id, scope_id: $sc, embedding: r.e})",
                              sc=sc, rows=rows)
    with raw.session() as s:
        s.run("CALL db.awaitIndexes(300)").consume()
    try:
        yield rng
    finally:
        with raw.session() as s:
            s.run("MATCH (n:VecProbe) CALL (n) { DELETE n } IN TRANSACTIONS OF 5000 ROWS").consume()
            s.run("DROP INDEX vecprobe_embedding IF EXISTS").consume()
            s.run("DROP INDEX vecprobe_scope IF EXISTS").consume()


def test_exact_scope_scan_never_misses_where_over_fetch_does(raw: Driver,
                                                            probes: np.random.Generator) -> None:
    queries = probes.standard_normal((10, DIM))
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    report: dict[tuple[str, str], tuple[float, float]] = {}
    for sc in SIZES:
        truth = []
        for q in queries:
            records, _, _ = raw.execute_query(EXACT, sc=sc, q=q.tolist(), k=K)
            truth.append({r["id"] for r in records})
        modes = [("exact", EXACT, {})] + [(f"ann x{m}", ANN, {"fetch": K * m}) for m in (1, 10)]
        for name, query, extra in modes:
            recalls, latencies = [], []
            for q, want in zip(queries, truth, strict=True):
                t = time.perf_counter()
                records, _, _ = raw.execute_query(query, sc=sc, q=q.tolist(), k=K, **extra)
                latencies.append(time.perf_counter() - t)
                recalls.append(len({r["id"] for r in records} & want) / K)
            report[(sc, name)] = (statistics.mean(recalls), statistics.median(latencies) * 1000)
    print(f"\nrecall@{K} against the exact answer, median latency; scopes {SIZES} share one index")
    for (sc, name), (rec, ms) in report.items():
        print(f"  {sc:6s} {name:8s} recall {rec:.2f}  {ms:6.1f} ms")
    assert report[("small", "exact")][0] == report[("large", "exact")][0] == 1.0
    # A small tenant is a small part of the global index: over-fetching misses most of its neighbours.
    assert report[("small", "ann x10")][0] < 0.5
