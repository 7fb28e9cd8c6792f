"""The scope copies' byte budget (service/search/scope_index.py): a copy's counted footprint against what building
it really allocated (tracemalloc), on several shapes of scope, and the cache dropping the least recently used
copies once together they pass the budget — but never the copy it has just made."""

from __future__ import annotations

import random
import tracemalloc
import uuid
from typing import Any

import pytest

from service.search.scope_index import ScopeCopy, ScopeIndexes

EN = [f"w{i}" for i in range(20_000)]  # a Zipf-drawn vocabulary: few frequent terms, a long tail
ZH = [chr(0x4E00 + i) for i in range(3_000)]


def _rows(n: int, shape: str, seed: int = 7) -> list[dict[str, Any]]:
    rnd = random.Random(seed)
    weights = [1 / (i + 1) for i in range(len(EN))]

    def text() -> str:
        if shape == "chinese":
            return "".join(rnd.choices(ZH, k=rnd.randint(10, 60)))
        k = {"short": rnd.randint(3, 8), "long": rnd.randint(80, 200)}.get(shape, rnd.randint(8, 40))
        return " ".join(rnd.choices(EN, weights=weights, k=k))

    t0 = 1_700_000_000_000_000_000
    return [{"id": uuid.UUID(int=rnd.getrandbits(128)).hex, "family": "memory",
             "kind": "episodic" if i % 3 == 0 else "semantic", "content": text(), "created": t0 + i * 1000,
             "updated": t0 + i * 1000} for i in range(n)]


@pytest.mark.parametrize("shape", ["mixed", "short", "long", "chinese"])
def test_the_footprint_is_near_what_the_copy_allocated(shape: str) -> None:
    """Within a third: numpy serves small arrays (most postings) from a cache of its own that tracemalloc sees only
    in part, so the allocation counted here is itself a little low for scopes of many rare terms."""
    rows = _rows(4_000, shape)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        copy = ScopeCopy.build(("v",), None, rows)
        allocated = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    counted = copy.footprint()
    assert 0.75 * allocated <= counted <= 1.35 * allocated, (shape, counted, allocated)
    assert copy.footprint() == counted  # computed once


def test_the_cache_keeps_to_its_byte_budget_least_recently_used_first() -> None:
    copies = {name: ScopeCopy.build((name,), None, _rows(2_000, "mixed", seed=i))
              for i, name in enumerate("abcde")}
    one = max(c.footprint() for c in copies.values())
    cache = ScopeIndexes(max_bytes=3 * one)
    for name in "abc":
        cache._keep((name, None), copies[name])
    assert len(cache) == 3 and cache.bytes() <= 3 * one
    cache._keep(("a", None), copies["a"])  # a used again: b is now the least recently used
    cache._keep(("d", None), copies["d"])
    assert set(k for k, _ in cache._copies) == {"a", "c", "d"}
    assert cache.bytes() <= cache.max_bytes


def test_a_copy_larger_than_the_budget_alone_is_kept_while_it_is_the_newest() -> None:
    big = ScopeCopy.build(("big",), None, _rows(5_000, "long"))
    small = ScopeCopy.build(("small",), None, _rows(100, "short"))
    cache = ScopeIndexes(max_bytes=big.footprint() // 2)
    cache._keep(("small", None), small)
    cache._keep(("big", None), big)
    assert [k for k, _ in cache._copies] == ["big"]  # the small one went; the big one answers
    cache._keep(("small", None), small)
    assert [k for k, _ in cache._copies] == ["small"]
