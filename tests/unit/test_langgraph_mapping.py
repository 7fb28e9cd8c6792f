"""The LangGraph store's pure mapping (cognition/langgraph/mapping.py): its filter and namespace-match semantics are
LangGraph's own — checked against `InMemoryStore`'s functions on random values, filters and paths — and TTLs map to
the shortest tier that keeps an item at least that long."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("langgraph.store.base", reason="the LangGraph store needs `pip install 'cognition[langgraph]'`")

from hypothesis import given
from hypothesis import strategies as st
from langgraph.store.base import GetOp, InvalidNamespaceError, MatchCondition, PutOp
from langgraph.store.memory import _compare_values, _does_match

from cognition.langgraph.mapping import does_match, literal_head, matches, subject, text_leaves, tier_for_ttl, validate

scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(["a", "b", ""]))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                       st.dictionaries(st.sampled_from("xyz"), inner, max_size=3)),
                      max_leaves=6)
numbers = st.integers(-3, 3)
conditions = st.one_of(
    values,
    st.dictionaries(st.sampled_from(["$eq", "$ne"]), values, min_size=1, max_size=2),
    st.dictionaries(st.sampled_from(["$gt", "$gte", "$lt", "$lte"]), numbers, min_size=1, max_size=2),
)


@given(item=st.dictionaries(st.sampled_from("xyz"), st.one_of(values, numbers), max_size=3),
       flt=st.dictionaries(st.sampled_from("xyz"), conditions, max_size=2))
def test_filters_are_langgraphs(item: dict[str, Any], flt: dict[str, Any]) -> None:
    def theirs() -> bool:
        return all(_compare_values(item.get(k), v) for k, v in flt.items())

    try:
        expected: bool | type[Exception] = theirs()
    except (TypeError, ValueError) as exc:  # an ordered operator on a value that is no number: both refuse
        expected = type(exc)
    if isinstance(expected, bool):
        assert matches(item, flt) is expected
    else:
        with pytest.raises((TypeError, ValueError)):
            matches(item, flt)


labels = st.sampled_from(["a", "b", "c"])


@given(ns=st.lists(labels, min_size=1, max_size=4).map(tuple),
       path=st.lists(st.one_of(labels, st.just("*")), min_size=1, max_size=3).map(tuple),
       kind=st.sampled_from(["prefix", "suffix"]))
def test_namespace_matches_are_langgraphs(ns: tuple[str, ...], path: tuple[str, ...], kind: Any) -> None:
    condition = MatchCondition(match_type=kind, path=path)
    assert does_match(condition, ns) == _does_match(condition, ns)


def test_literal_head_and_validation() -> None:
    assert literal_head(("a", "b", "*", "c")) == ("a", "b") and literal_head(("*",)) == ()
    for bad in (("a.b",), ("",), ("a\x00",)):
        with pytest.raises(InvalidNamespaceError):
            validate(GetOp(bad, "k"))
    validate(PutOp(("a", "b"), "k", {"v": 1}))


@pytest.mark.parametrize(("ttl", "tier"), [(None, "role"), (1, "session"), (24 * 60, "session"),
                                           (24 * 60 + 1, "working"), (7 * 24 * 60, "working"),
                                           (30 * 24 * 60, "agent"), (30 * 24 * 60 + 1, "role")])
def test_ttl_to_tier(ttl: float | None, tier: str) -> None:
    assert tier_for_ttl(ttl) == tier


def test_subject_is_the_key_or_its_hash() -> None:
    assert subject("tea") == "tea"
    long = subject("x" * 201)
    assert long.startswith("sha256:") and len(long) <= 200 and long != subject("x" * 202)


def test_the_whole_value_indexes_its_string_leaves_in_order() -> None:
    value = {"text": "prefers tea", "n": 3, "meta": {"tags": ["green", 4, {"note": "jasmine"}], "ok": True}, "z": None}
    assert text_leaves(value) == ["prefers tea", "green", "jasmine"]
    assert text_leaves({"n": 1, "flag": False}) == [] and text_leaves("x") == ["x"]

