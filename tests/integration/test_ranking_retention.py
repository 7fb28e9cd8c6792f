"""RetentionScore as Neo4j computes it (digest.retention.RETENTION_SCORE_CYPHER, the expression every ranking
and GC query uses) equals retention_score() in Python, on generated cases (hypothesis, bounded examples; each
example is one batch of cases in one round trip)."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from neo4j import Driver

from digest.retention import RETENTION_SCORE_CYPHER, RetentionWeights, retention_score, weights_param

# Whole-minute offsets: the driver (like every real time zone) carries offsets in minutes.
_zones = st.builds(lambda m: timezone(timedelta(minutes=m)),
                   st.integers(min_value=-14 * 60, max_value=14 * 60))
_times = st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=_zones)
_case = st.fixed_dictionaries({
    "recall_count": st.integers(min_value=-5, max_value=10_000),
    "accessed_at": _times,
    "created_at": _times,
    "trust": st.one_of(st.floats(min_value=-2.0, max_value=3.0, allow_nan=False), st.just(math.nan)),
})
_weights = st.builds(
    RetentionWeights,
    recall=st.floats(0.0, 10.0), recency=st.floats(0.0, 10.0), age=st.floats(0.0, 10.0),
    trust=st.floats(0.01, 10.0),
    recency_half_life_days=st.floats(0.01, 1000.0), age_half_life_days=st.floats(0.01, 1000.0),
)

QUERY = f"UNWIND $cases AS m RETURN {RETENTION_SCORE_CYPHER} AS score"


def _in_neo4j(raw: Driver, cases: list[dict[str, Any]], now: datetime, w: RetentionWeights) -> list[float]:
    records, _, _ = raw.execute_query(QUERY, cases=cases, now=now, w=weights_param(w))
    return [float(r["score"]) for r in records]


@given(st.lists(_case, min_size=1, max_size=40), _times, _weights)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_cypher_retention_equals_python(raw: Driver, cases: list[dict[str, Any]], now: datetime,
                                        w: RetentionWeights) -> None:
    got = _in_neo4j(raw, cases, now, w)
    for case, score in zip(cases, got, strict=True):
        expected = retention_score(now=now, weights=w, **case)
        assert math.isclose(score, expected, rel_tol=1e-9, abs_tol=1e-12), (case, now, w, score, expected)


def test_cypher_retention_on_a_stored_node_with_missing_properties(raw: Driver) -> None:
    """On a real node: Neo4j DateTime properties, and the Cypher-only null handling (trust 0.5, recall 0,
    accessed_at falls back to created_at)."""
    now = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)
    created = now - timedelta(days=10, seconds=7)
    records, _, _ = raw.execute_query(
        f"CREATE (m:RetentionProbe {{created_at: $created}}) WITH m RETURN {RETENTION_SCORE_CYPHER} AS score",
        created=created, now=now, w=weights_param(RetentionWeights()))
    raw.execute_query("MATCH (m:RetentionProbe) DELETE m")
    expected = retention_score(recall_count=0, accessed_at=created, created_at=created, trust=0.5, now=now)
    assert math.isclose(records[0]["score"], expected, rel_tol=1e-12)
