"""Time in the scope index's ranking (service/search/temporal.time_weights through ScopeCopy.rank): without a time
in the query nothing moves, bit for bit; rows of the query's time rise and rows the words do not match stay out;
the time columns of a copy brought up to date by a delta are those a full build makes."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from service.search import temporal
from service.search.scope_index import IndexParams, ScopeCopy
from tests.copies import assert_same_copy

NOW = datetime(2023, 5, 10, 15, 30, tzinfo=UTC)
PARAMS = IndexParams(neighbour_weight=0.5, neighbour_weight_2=0.25)
_T0 = 1_700_000_000_000_000_000


def _ns(d: datetime) -> int:
    return temporal.ns(d)


def _copy(texts: list[str], occurred: list[datetime], kind: str = "episodic") -> ScopeCopy:
    rows = [{"id": f"r{i}", "family": "memory", "kind": kind, "content": t, "created": _T0 + 1000 * i,
             "occurred": _ns(o)} for i, (t, o) in enumerate(zip(texts, occurred, strict=True))]
    return ScopeCopy.build((), None, rows)


_WORDS = ["coffee", "tram", "lisbon", "paint", "yesterday", "last", "week", "May", "in", "2022", "went", "去年",
          "五月", "咖啡", "when", "did", "ago", "two", "days", "on", "Friday", "the", "summer"]
_texts = st.lists(st.sampled_from(_WORDS), min_size=0, max_size=8).map(" ".join)
_times = st.integers(0, 800).map(lambda d: datetime(2021, 1, 1, 12, tzinfo=UTC) + timedelta(days=d))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_texts, _times), min_size=1, max_size=25),
       st.lists(st.sampled_from(["coffee", "tram", "lisbon", "paint", "咖啡", "went", "what", "where"]), min_size=1,
                max_size=4).map(" ".join))
def test_a_query_without_time_ranks_bit_for_bit_as_before(rows: list[tuple[str, datetime]], query: str) -> None:
    copy = _copy([t for t, _ in rows], [o for _, o in rows])
    when = temporal.query_time(query, NOW)
    assert not when.active
    assert np.array_equal(copy.lexical_scores(query, PARAMS, when), copy.lexical_scores(query, PARAMS))
    assert copy.rank(query, None, ["memory"], 10, PARAMS, when) == copy.rank(query, None, ["memory"], 10, PARAMS)
    assert temporal.time_weights(when, copy.occurred, copy.said) is None  # type: ignore[arg-type]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_texts, _times), min_size=1, max_size=25), _texts)
def test_time_only_multiplies_so_unmatched_rows_stay_out(rows: list[tuple[str, datetime]], query: str) -> None:
    copy = _copy([t for t, _ in rows], [o for _, o in rows])
    when = temporal.query_time(query, NOW)
    plain, timed = copy.lexical_scores(query, PARAMS), copy.lexical_scores(query, PARAMS, when)
    assert np.array_equal(plain == 0, timed == 0)  # a multiplier: zero stays zero, nothing else becomes zero
    assert np.all(timed >= plain)  # and never below one
    ranked = copy.rank(query, None, ["memory"], 50, PARAMS, when)[0]
    assert set(ranked) == {copy.ids[i] for i in np.flatnonzero(plain > 0)}


def test_the_row_of_the_query_s_time_rises() -> None:
    texts = ["We walked to the lighthouse.", "We walked to the lighthouse."]
    copy = _copy(texts, [datetime(2022, 8, 3, tzinfo=UTC), datetime(2023, 5, 2, tzinfo=UTC)])
    q = "Where did we walk in May?"
    assert copy.rank(q, None, ["memory"], 2, PARAMS)[0] == ["r0", "r1"]  # a tie: by position
    assert copy.rank(q, None, ["memory"], 2, PARAMS, temporal.query_time(q, NOW))[0] == ["r1", "r0"]
    other = "Where did we walk last summer?"  # summer 2022
    assert copy.rank(other, None, ["memory"], 2, PARAMS, temporal.query_time(other, NOW))[0] == ["r0", "r1"]


def test_a_row_that_says_yesterday_is_found_on_that_day() -> None:
    """Told on 2 May, "last night" is 1 May: the question about 1 May finds it, though it occurred on the 2nd
    and a week later than the other row's day (lag 0 so that occurred_at alone does not reach it)."""
    copy = _copy(["I watched a film at home.", "I watched a film last night!"],
                 [datetime(2022, 4, 20, tzinfo=UTC), datetime(2022, 5, 2, 11, tzinfo=UTC)])
    q = "Which film did I watch on 1 May, 2022?"
    when = temporal.query_time(q, NOW)
    params = replace(PARAMS, time=replace(temporal.DEFAULT_RULE, lag_days=0.0))
    assert copy.rank(q, None, ["memory"], 2, params)[0] == ["r0", "r1"]  # "film" weighs the same; r0 is shorter
    assert copy.rank(q, None, ["memory"], 2, params, when)[0] == ["r1", "r0"]
    said = copy.said
    assert said is not None and said.row.tolist() == [1]
    assert (int(said.lo[0]), int(said.hi[0])) == (_ns(datetime(2022, 5, 1, tzinfo=UTC)),
                                                  _ns(datetime(2022, 5, 2, tzinfo=UTC)))


def test_a_question_about_when_prefers_the_row_that_says_when() -> None:
    copy = _copy(["Melanie: the charity race was so much fun", "Melanie: I ran the charity race last Saturday"],
                 [datetime(2023, 5, 25, tzinfo=UTC)] * 2)
    q = "When did Melanie run the charity race?"
    plain = copy.rank(q, None, ["memory"], 2, PARAMS)[0]
    assert copy.rank(q, None, ["memory"], 2, PARAMS, temporal.query_time(q, NOW))[0] == ["r1", "r0"] != plain


def test_an_interval_that_holds_every_row_moves_nothing() -> None:
    """A signal every row has tells nothing ("in 2023" in a scope that is all 2023): its weight is nil."""
    copy = _copy(["tram to the coast", "tram to the hills", "a tram in town"],
                 [datetime(2023, 1, 5, tzinfo=UTC), datetime(2023, 3, 5, tzinfo=UTC), datetime(2023, 4, 1, tzinfo=UTC)])
    q = "Where did the tram go in 2023?"
    when = temporal.query_time(q, NOW)
    assert [r.text for r in when.refs] == ["2023"]
    assert np.array_equal(copy.lexical_scores(q, PARAMS, when), copy.lexical_scores(q, PARAMS))


def test_the_multiplier_is_the_documented_formula() -> None:
    occurred = np.array([_ns(datetime(2023, 5, d, tzinfo=UTC)) for d in (1, 3, 9, 20)], dtype=np.int64)
    # Row 1's text names 2 May; row 3's names 20 April.
    said = temporal.RowTimes(np.array([1, 3]), np.array([_ns(datetime(2023, 5, 2, tzinfo=UTC)),
                                                         _ns(datetime(2023, 4, 20, tzinfo=UTC))]),
                             np.array([_ns(datetime(2023, 5, 3, tzinfo=UTC)), _ns(datetime(2023, 4, 21, tzinfo=UTC))]))
    when = temporal.query_time("What happened on 2 May 2023?", NOW)  # [2 May, 3 May), lag 7 days
    rule = temporal.TimeRule(boost=2.0, lag_days=7.0, states_boost=0.5)
    w = temporal.time_weights(when, occurred, said, rule)
    # occurred in [2 May, 10 May): rows 1 and 2 (share 1/2); text in: row 1 (share 1/4). Not a "when" question.
    assert w is not None and np.allclose(w, [1.0, 1 + 2 * (0.5 + 0.75), 1 + 2 * 0.5, 1.0])
    asks = temporal.query_time("When did it happen?", NOW)
    w = temporal.time_weights(asks, occurred, said, rule)
    assert w is not None and np.allclose(w, [1.0, 1 + 0.5 * 0.5, 1.0, 1 + 0.5 * 0.5])  # rows naming a time: 1/2


_row = st.tuples(st.lists(st.sampled_from(_WORDS), max_size=6), st.integers(0, 3), st.integers(0, 60))


def _rows(spec: list[tuple[list[str], int, int]]) -> list[dict[str, Any]]:
    out, t = [], _T0
    for i, (words, step, day) in enumerate(spec):
        t += step
        out.append({"id": f"a{i:04d}", "family": "memory", "kind": "episodic", "content": " ".join(words),
                    "embedding": None, "created": t, "updated": t + step,
                    "occurred": _ns(datetime(2023, 3, 1, tzinfo=UTC) + timedelta(days=day))})
    return out


@settings(max_examples=100, deadline=None)
@given(st.lists(_row, max_size=30), st.lists(_row, max_size=10),
       st.lists(st.tuples(st.integers(0, 29), st.one_of(st.none(), st.lists(st.sampled_from(_WORDS), max_size=6)),
                          st.integers(0, 60)), max_size=5),
       st.sets(st.integers(0, 29), max_size=6))
def test_an_extended_copy_has_the_time_columns_of_a_full_build(held: list[Any], new: list[Any],
                                                               edits: list[tuple[int, list[str] | None, int]],
                                                               deleted: set[int]) -> None:
    """Updates that change a row's text and its occurred_at, or only its occurred_at (words None), deletions and
    new rows: the occurred column and the intervals rows' texts name are those a full build of the scope makes."""
    rows = _rows(held + new)
    old = ScopeCopy.build(("v1",), None, rows[:len(held)])
    now = dict(enumerate(rows))
    for at, words, day in edits:
        if at < len(held):
            text = rows[at]["content"] if words is None else " ".join(words)
            now[at] = dict(rows[at], content=text, updated=rows[at]["updated"] + 1000,
                           occurred=_ns(datetime(2023, 3, 1, tzinfo=UTC) + timedelta(days=day)))
    gone = {i for i in deleted if i < len(held)}
    touched = {at for at, _, _ in edits if at < len(held)} | set(range(len(held), len(rows)))
    grown = old.extended(("v2",), [now[i] for i in sorted(touched - gone)], [rows[i]["id"] for i in sorted(gone)])
    assert grown is not None
    assert_same_copy(grown, ScopeCopy.build(("v2",), None, [now[i] for i in range(len(rows)) if i not in gone]))


def test_an_update_that_moves_only_occurred_at_moves_what_its_text_names() -> None:
    rows = _rows([(["went", "yesterday"], 1, 5), (["coffee"], 1, 6)])
    old = ScopeCopy.build(("v1",), None, rows)
    moved = dict(rows[0], updated=rows[0]["updated"] + 1000,
                 occurred=_ns(datetime(2023, 3, 20, tzinfo=UTC)))  # the same text, told two weeks later
    grown = old.extended(("v2",), [moved])
    assert grown is not None and grown.said is not None and grown.occurred is not None
    assert grown.said.lo.tolist() == [_ns(datetime(2023, 3, 19, tzinfo=UTC))]
    assert_same_copy(grown, ScopeCopy.build(("v2",), None, [moved, rows[1]]))


def test_times_stored_with_a_row_are_taken_as_they_are() -> None:
    """A row may carry `said`, its text's intervals computed when it was saved (temporal.said_of): the copy takes
    it instead of resolving the text; a row without it is resolved. A said backfilled later (same text) reaches an
    extended copy as it reaches a full build."""
    rows = _rows([(["went", "yesterday"], 1, 5), (["coffee", "yesterday"], 1, 6)])
    assert temporal.said_of("went yesterday", rows[0]["occurred"]) == [
        _ns(datetime(2023, 3, 5, tzinfo=UTC)), _ns(datetime(2023, 3, 6, tzinfo=UTC))]
    stored = [_ns(datetime(2020, 1, 1, tzinfo=UTC)), _ns(datetime(2020, 1, 2, tzinfo=UTC))]
    copy = ScopeCopy.build(("v1",), None, [dict(rows[0], said=stored), rows[1]])
    assert copy.said is not None and copy.said.row.tolist() == [0, 1]
    assert copy.said.lo.tolist()[0] == stored[0] and copy.said.lo.tolist()[1] == _ns(datetime(2023, 3, 6, tzinfo=UTC))
    empty = ScopeCopy.build(("v1",), None, [dict(rows[0], said=[]), rows[1]])  # stored: names no time
    assert empty.said is not None and empty.said.row.tolist() == [1]
    backfilled = dict(rows[1], said=stored, updated=rows[1]["updated"] + 1000)
    grown = copy.extended(("v2",), [backfilled])
    assert grown is not None
    assert_same_copy(grown, ScopeCopy.build(("v2",), None, [dict(rows[0], said=stored), backfilled]))


def test_a_row_without_occurred_at_happened_when_it_was_created() -> None:
    rows = [{"id": "a", "family": "memory", "kind": "fact", "content": "x", "created": _T0}]
    copy = ScopeCopy.build((), None, rows)
    assert copy.occurred is not None and copy.occurred.tolist() == [_T0]
    assert ScopeCopy.build((), None, [{"id": "a", "family": "memory", "kind": "fact", "content": "x"}]).occurred is None


# The occasion lift (IndexParams.occasion_weight): rows that occurred at the same instant are one occasion.
OCCASION = replace(PARAMS, occasion_weight=0.1)


def test_a_turn_rises_toward_the_best_turn_of_its_occasion() -> None:
    """Two turns match "lisbon" alike; the one whose session also holds a strong match (the same occurred_at) rises
    by weight × (that match's score − its own), and the strong match itself keeps its score."""
    day1, day2 = datetime(2023, 3, 1, 18, tzinfo=UTC), datetime(2023, 4, 2, 18, tzinfo=UTC)
    texts = ["lisbon tram lisbon tram lisbon", "we sat down", "the weather", "lisbon once",
             "we sat down", "the weather", "lisbon once"]
    copy = _copy(texts, [day1, day1, day1, day1, day2, day2, day2])
    plain, lifted = copy.lexical_scores("lisbon tram", PARAMS), copy.lexical_scores("lisbon tram", OCCASION)
    assert plain[3] == plain[6] > 0  # alike on their own
    best = plain[[0, 3]].max()
    assert lifted[3] == plain[3] + 0.1 * (best - plain[3])
    assert lifted[6] == plain[6] + 0.1 * (plain[[4, 5, 6]].max() - plain[6])
    assert lifted[0] == plain[0] and lifted[3] > lifted[6]
    assert copy.rank("lisbon tram", None, ["memory"], 7, OCCASION)[0].index("r3") < \
        copy.rank("lisbon tram", None, ["memory"], 7, OCCASION)[0].index("r6")


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_texts, st.integers(0, 3)), min_size=1, max_size=25), _texts)
def test_the_occasion_lift_keeps_unmatched_rows_out_and_never_lowers(rows: list[tuple[str, int]], query: str) -> None:
    copy = _copy([t for t, _ in rows], [datetime(2023, 1, 1 + d, tzinfo=UTC) for _, d in rows])
    plain, lifted = copy.lexical_scores(query, PARAMS), copy.lexical_scores(query, OCCASION)
    assert np.array_equal(plain == 0, lifted == 0)
    assert np.all(lifted >= plain)
    for day in {d for _, d in rows}:  # within an occasion: at most its best score, the order kept
        at = np.flatnonzero([d == day for _, d in rows])
        assert lifted[at].max() == plain[at].max()
        assert np.array_equal(np.argsort(plain[at], kind="stable"), np.argsort(lifted[at], kind="stable"))


@settings(max_examples=100, deadline=None)
@given(st.lists(_texts, min_size=1, max_size=25), _texts)
def test_rows_each_at_its_own_time_rank_bit_for_bit_as_without_the_lift(texts: list[str], query: str) -> None:
    """Rows saved without an occurred_at happened when they were saved, each at its own instant: nothing moves."""
    rows = [{"id": f"r{i}", "family": "memory", "kind": "episodic", "content": t, "created": _T0 + 1000 * i}
            for i, t in enumerate(texts)]
    copy = ScopeCopy.build((), None, rows)
    assert np.array_equal(copy.lexical_scores(query, PARAMS), copy.lexical_scores(query, OCCASION))
