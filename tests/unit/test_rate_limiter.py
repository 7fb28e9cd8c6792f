"""The token buckets (service/usecases/limits.py) on a hand-driven clock: a burst then refusal, refill at the rate,
reads and writes apart, a key's and a namespace's buckets spent together or not at all, a replica's share, and what a
refusal tells the client (Retry-After and the draft-11 RateLimit fields)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.usecases.access import Operation
from service.usecases.limits import Limit, Limits, RateLimited, RateLimiter

R, W = Operation.read, Operation.write


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def limiter(key_w: float = 1.0, key_r: float = 0.0, ns_w: float = 0.0, ns_r: float = 0.0,
            burst_s: float = 5.0) -> tuple[RateLimiter, Clock]:
    clock = Clock()
    lims = Limits(Limit(key_r, burst_s), Limit(key_w, burst_s), Limit(ns_r, burst_s), Limit(ns_w, burst_s))
    return RateLimiter(lims, clock=clock), clock


def admitted(lim: RateLimiter, n: int, key: str = "k", ns: str | None = "n", op: Operation = W) -> int:
    ok = 0
    for _ in range(n):
        try:
            lim.take(key, ns, op)
            ok += 1
        except RateLimited:
            pass
    return ok


def test_burst_then_refusal_then_refill() -> None:
    lim, clock = limiter(key_w=2.0, burst_s=3.0)  # 6 tokens, 2 a second
    assert admitted(lim, 10) == 6
    with pytest.raises(RateLimited) as refused:
        lim.take("k", "n", W)
    assert refused.value.policy == "key-write" and refused.value.retry_after == pytest.approx(0.5)
    assert refused.value.headers() == {"Retry-After": "1", "RateLimit-Policy": '"key-write";q=6;w=3',
                                       "RateLimit": '"key-write";r=0;t=1'}
    clock.now += 1.0
    assert admitted(lim, 10) == 2
    clock.now += 1000
    assert admitted(lim, 10) == 6  # never more than the burst


def test_reads_and_writes_and_keys_are_apart() -> None:
    lim, _ = limiter(key_w=1.0, key_r=1.0, burst_s=2.0)
    assert admitted(lim, 5, op=W) == 2
    assert admitted(lim, 5, op=R) == 2
    assert admitted(lim, 5, key="other", op=W) == 2
    assert admitted(lim, 5, op=Operation.approve) == 0  # every operation but `read` is a write


def test_both_buckets_or_neither() -> None:
    lim, _ = limiter(key_w=1.0, ns_w=1.0, burst_s=3.0)  # each bucket: 3
    assert admitted(lim, 2, key="a") == 2
    assert admitted(lim, 5, key="b") == 1  # the namespace has one left
    with pytest.raises(RateLimited) as refused:
        lim.take("b", "n", W)
    assert refused.value.policy == "namespace-write"
    # b's refused requests spent none of b's own bucket: in another namespace it still has two
    assert admitted(lim, 5, key="b", ns="elsewhere") == 2
    assert admitted(lim, 5, key="c", ns=None) == 3  # key-wide routes: the key's bucket only


def test_a_replica_takes_its_share() -> None:
    lim, clock = limiter(key_w=3.0, burst_s=4.0)  # 12 tokens, 3 a second
    lim.share = 1 / 3
    assert admitted(lim, 20) == 4
    clock.now += 1.0
    assert admitted(lim, 20) == 1
    lim.share = 1 / 50  # more replicas than the burst: each still admits one
    clock.now += 100
    assert admitted(lim, 5) == 1


def test_off_limits_admit_everything() -> None:
    lim, _ = limiter(key_w=0.0)
    assert not lim.on and admitted(lim, 1000) == 1000


@given(rate=st.floats(0.1, 50), burst_s=st.floats(0.1, 20), gaps=st.lists(st.floats(0, 3), max_size=60))
def test_never_more_than_the_bucket_allows(rate: float, burst_s: float, gaps: list[float]) -> None:
    """Over any run, admitted ≤ capacity + rate × elapsed (the token bucket's promise), and a request arriving with
    a full token is admitted."""
    lim, clock = limiter(key_w=rate, burst_s=burst_s)
    cap = max(1.0, rate * burst_s)
    ok = 0
    for gap in gaps:
        clock.now += gap
        ok += admitted(lim, 1)
        assert ok <= cap + rate * clock.now + 1e-9


def test_check_key_answers_what_take_would_and_spends_nothing() -> None:
    lim, clock = limiter(key_w=1.0, ns_w=1.0, burst_s=3.0)
    for _ in range(10):
        lim.check_key("k", W)  # a full bucket: asked as often as you like, nothing spent
    assert admitted(lim, 5) == 3
    with pytest.raises(RateLimited) as gate:
        lim.check_key("k", W)
    with pytest.raises(RateLimited) as took:
        lim.take("k", "n", W)
    assert (gate.value.policy, gate.value.headers()) == (took.value.policy, took.value.headers())
    lim.check_key("k", R)  # reads apart
    lim.check_key("other", W)  # other keys apart
    clock.now += 1.0
    lim.check_key("k", W)  # a token back: the gate lets it through, `take` spends it
    assert admitted(lim, 5) == 1
