"""Properties of digest.retention.retention_score and its Cypher twin."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from digest.retention import (
    RETENTION_SCORE_CYPHER,
    RetentionWeights,
    retention_score,
    weights_param,
)

NOW = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)

_zones = st.builds(timezone, st.timedeltas(min_value=timedelta(hours=-14), max_value=timedelta(hours=14)))
_times = st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=_zones)
_recalls = st.integers(min_value=-5, max_value=10_000)
_trust = st.floats(min_value=-2.0, max_value=3.0, allow_nan=False)
_weights = st.builds(
    RetentionWeights,
    recall=st.floats(0.0, 10.0),
    recency=st.floats(0.0, 10.0),
    age=st.floats(0.0, 10.0),
    trust=st.floats(0.01, 10.0),  # keeps the sum > 0
    recency_half_life_days=st.floats(0.01, 1000.0),
    age_half_life_days=st.floats(0.01, 1000.0),
)


def _score(
    *,
    recall_count: int = 0,
    accessed_at: datetime = NOW,
    created_at: datetime = NOW,
    trust: float = 0.5,
    now: datetime = NOW,
    weights: RetentionWeights | None = None,
) -> float:
    return retention_score(
        recall_count=recall_count,
        accessed_at=accessed_at,
        created_at=created_at,
        trust=trust,
        now=now,
        weights=weights or RetentionWeights(),
    )


@given(_recalls, _recalls, _times, _times, _trust, _times, _weights)
@settings(max_examples=300)
def test_more_recalls_never_lowers(
    r1: int, r2: int, accessed: datetime, created: datetime, trust: float, now: datetime, w: RetentionWeights
) -> None:
    lo, hi = sorted((r1, r2))

    def at(rc: int) -> float:
        return _score(
            recall_count=rc, accessed_at=accessed, created_at=created, trust=trust, now=now, weights=w
        )

    assert at(hi) >= at(lo)


@given(_recalls, _times, _times, _times, _trust, _times, _weights)
@settings(max_examples=300)
def test_later_access_never_lowers(
    rc: int, a1: datetime, a2: datetime, created: datetime, trust: float, now: datetime, w: RetentionWeights
) -> None:
    early, late = sorted((a1, a2))

    def at(accessed: datetime) -> float:
        return _score(
            recall_count=rc, accessed_at=accessed, created_at=created, trust=trust, now=now, weights=w
        )

    assert at(late) >= at(early)


@given(_recalls, _times, _times, _trust, _trust, _times, _weights)
@settings(max_examples=300)
def test_more_trust_never_lowers(
    rc: int, accessed: datetime, created: datetime, t1: float, t2: float, now: datetime, w: RetentionWeights
) -> None:
    lo, hi = sorted((t1, t2))

    def at(trust: float) -> float:
        return _score(
            recall_count=rc, accessed_at=accessed, created_at=created, trust=trust, now=now, weights=w
        )

    assert at(hi) >= at(lo)


@given(_recalls, _times, _times, st.floats(allow_nan=True), _times, _weights)
@settings(max_examples=300)
def test_always_in_unit_interval(
    rc: int, accessed: datetime, created: datetime, trust: float, now: datetime, w: RetentionWeights
) -> None:
    s = _score(recall_count=rc, accessed_at=accessed, created_at=created, trust=trust, now=now, weights=w)
    assert 0.0 <= s <= 1.0
    assert not math.isnan(s)


@given(
    _recalls,
    _times,
    st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=9000)),
    _trust,
    _times,
    _weights,
)
@settings(max_examples=300)
def test_access_before_creation_is_floored(
    rc: int, created: datetime, back: timedelta, trust: float, now: datetime, w: RetentionWeights
) -> None:
    def at(accessed: datetime) -> float:
        return _score(
            recall_count=rc, accessed_at=accessed, created_at=created, trust=trust, now=now, weights=w
        )

    assert at(created - back) == at(created)


@given(_recalls, _times, _times, _trust, _times, _weights)
@settings(max_examples=200)
def test_deterministic(
    rc: int, accessed: datetime, created: datetime, trust: float, now: datetime, w: RetentionWeights
) -> None:
    first = _score(recall_count=rc, accessed_at=accessed, created_at=created, trust=trust, now=now, weights=w)
    again = _score(recall_count=rc, accessed_at=accessed, created_at=created, trust=trust, now=now, weights=w)
    assert first == again


def test_default_weights_known_values() -> None:
    # Fresh memory: recall 0, recency 1, age 1, trust 0.5.
    assert _score() == pytest.approx(0.30 + 0.10 + 0.15 * 0.5)
    # Created and accessed 7 days ago: one recency half-life, 7/90 of an age half-life.
    s = _score(accessed_at=NOW - timedelta(days=7), created_at=NOW - timedelta(days=7))
    expected = 0.30 * 0.5 + 0.10 * 0.5 ** (7 / 90) + 0.15 * 0.5
    assert s == pytest.approx(expected)
    # Saturating recall term.
    assert _score(recall_count=5) == pytest.approx(0.45 * (1 - math.exp(-1)) + 0.475)


def test_future_timestamps_clamped_to_now() -> None:
    future = NOW + timedelta(days=3)
    assert _score(accessed_at=future, created_at=future) == _score()
    assert _score(accessed_at=future) == _score()


def test_sub_second_differences_ignored() -> None:
    # Whole seconds, as Neo4j's duration.inSeconds(...).seconds.
    assert (
        _score(
            created_at=NOW - timedelta(microseconds=999_999),
            accessed_at=NOW - timedelta(microseconds=999_999),
        )
        == _score()
    )


def test_nan_trust_is_unknown() -> None:
    assert _score(trust=float("nan")) == _score(trust=0.5)


def test_mixing_naive_and_aware_raises() -> None:
    with pytest.raises(TypeError):
        _score(created_at=datetime(2025, 1, 1))


@pytest.mark.parametrize(
    "kw",
    [
        dict(recall=-0.1),
        dict(recall=0.0, recency=0.0, age=0.0, trust=0.0),
        dict(recency_half_life_days=0.0),
        dict(age_half_life_days=-1.0),
        dict(trust=float("nan")),
        dict(age_half_life_days=float("inf")),
    ],
)
def test_invalid_weights_rejected(kw: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        RetentionWeights(**kw)


def test_weights_param() -> None:
    assert weights_param(RetentionWeights()) == {
        "recall": 0.45,
        "recency": 0.30,
        "age": 0.10,
        "trust": 0.15,
        "recency_half_life_days": 7.0,
        "age_half_life_days": 90.0,
    }


def test_cypher_mentions_inputs_and_is_balanced() -> None:
    q = RETENTION_SCORE_CYPHER
    for needle in (
        "m.recall_count",
        "m.accessed_at",
        "m.created_at",
        "m.trust",
        "$now",
        "duration.inSeconds",
        ".seconds",
        "86400.0",
        "exp(",
        "coalesce(",
    ):
        assert needle in q
    for key in weights_param(RetentionWeights()):
        assert f"$w.{key}" in q
    for open_, close in ("()", "[]", "{}"):
        assert q.count(open_) == q.count(close)
    assert q.count("CASE") == q.count("END")
    assert "{_" not in q and "_LN2" not in q  # f-string placeholders rendered
