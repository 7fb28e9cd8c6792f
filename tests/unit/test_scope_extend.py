"""A scope copy brought up to date by a delta (service/search/scope_index.ScopeCopy.extended: deletions, updates, new
rows) is the copy a full build of the whole scope makes: the same ids, families, episodes, BM25 postings, lengths,
average and norms (bit for bit), so the same rankings; and a delta it cannot apply exactly (a row out of order, a
vector, a changed family or episode status) is refused."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from service.search import lexical
from service.search.scope_index import IndexParams, ScopeCopy
from tests.copies import assert_same_copy

_WORDS = ["lisbon", "tram", "paint", "dog", "coffee", "morning", "深色", "模式", "report", "friday"]
_row = st.tuples(st.sampled_from(["episodic", "semantic", "fact"]), st.sampled_from(["memory", "knowledge", "skill"]),
                 st.lists(st.sampled_from(_WORDS), min_size=0, max_size=6), st.booleans(), st.integers(0, 3))


def _rows(spec: list[tuple[str, str, list[str], bool, int]]) -> list[dict[str, Any]]:
    """Rows as search/scope_corpus.cypher returns them, oldest first: created times that repeat (ties go by id),
    titles on some, updated at or after created."""
    out, t = [], 1_700_000_000_000_000_000
    for i, (kind, family, words, titled, step) in enumerate(spec):
        t += step  # step 0: the same instant as the row before (a batch), ordered by id
        out.append({"id": f"a{i:04d}", "family": family, "kind": kind, "title": "Page" if titled else None,
                    "content": " ".join(words), "embedding": None, "created": t, "updated": t + step})
    return out


@settings(max_examples=150)
@given(st.lists(_row, min_size=0, max_size=40), st.lists(_row, min_size=0, max_size=15), st.integers(0, 10),
       st.lists(st.tuples(st.integers(0, 39), st.lists(st.sampled_from(_WORDS + ["zephyr"]), max_size=6),
                          st.booleans()), max_size=5),
       st.sets(st.integers(0, 39), max_size=8),
       st.lists(st.sampled_from(_WORDS), min_size=1, max_size=3), st.sampled_from([0.0, 0.5]))
def test_an_extended_copy_is_the_full_build(held: list[Any], new: list[Any], overlap: int,
                                            edits: list[tuple[int, list[str], bool]], deleted: set[int],
                                            query: list[str], w: float) -> None:
    rows = _rows(held + new)
    old = ScopeCopy.build(("v1",), None, rows[:len(held)])
    # The delta: the last few rows the copy holds (the look-back reads them again), rows it holds whose text an
    # update changed (or left as it was), and the new rows; oldest first, as Cypher returns them.
    now = dict(enumerate(rows))
    for at, words, titled in edits:
        if at < len(held):
            now[at] = dict(rows[at], content=" ".join(words), title="Page" if titled else None,
                           updated=rows[at]["updated"] + 1000)
    gone = {i for i in deleted if i < len(held)}  # deleted rows are tombstones: in no delta, named by id
    touched = {at for at, _, _ in edits if at < len(held)} | set(range(max(0, len(held) - overlap), len(rows)))
    delta = [now[i] for i in sorted(touched - gone)]
    grown = old.extended(("v2",), delta, [rows[i]["id"] for i in sorted(gone)] + ["not-held"])
    assert grown is not None
    full = ScopeCopy.build(("v2",), None, [now[i] for i in range(len(rows)) if i not in gone])
    assert_same_copy(grown, full)
    q, params = " ".join(query), IndexParams(neighbour_weight=w, neighbour_weight_2=w / 2)
    for families in (["memory"], ["memory", "knowledge", "skill"]):
        assert grown.rank(q, None, families, 20, params) == full.rank(q, None, families, 20, params)
        assert np.array_equal(grown.lexical_scores(q, params), full.lexical_scores(q, params))
    assert len(old.ids) == len(held)  # the copy other callers hold is left as it was
    assert all(old.digests[i] == ScopeCopy.build(("v1",), None, rows[:len(held)]).digests[i] for i in range(len(held)))


def test_a_rewritten_stamp_is_taken_and_nothing_else_moves() -> None:
    rows = _rows([("fact", "memory", ["report", "friday"], False, 1)] * 3)
    old = ScopeCopy.build(("v1",), None, rows)
    approved = [dict(rows[1], updated=rows[1]["updated"] + 50)]  # an approval: updated_at moves, the text does not
    grown = old.extended(("v2",), approved)
    assert grown is not None and grown.bm25 is old.bm25 and grown.ids == old.ids
    assert int(grown.stamps[1]) == rows[1]["updated"] + 50 and int(old.stamps[1]) == rows[1]["updated"]


def test_what_it_cannot_apply_exactly_is_refused() -> None:
    rows = _rows([("fact", "memory", ["report"], False, 2)] * 4)
    old = ScopeCopy.build(("v1",), None, rows[:3])
    late = dict(rows[3], created=rows[0]["created"] + 1, id="late")  # committed after newer rows: out of order
    assert old.extended(("v2",), [late]) is None
    assert old.extended(("v2",), [rows[3], dict(rows[3], id="a0000")]) is None  # not in (created, id) order
    assert old.extended(("v2",), [dict(rows[3], embedding=[0.1, 0.2])]) is None  # vectors: reloaded
    assert old.extended(("v2",), [dict(rows[1], family="knowledge")]) is None  # not a row this copy holds
    assert old.extended(("v2",), [dict(rows[1], kind="episodic")]) is None  # it would join the episodes
    no_order = ScopeCopy.build(("v1",), None, [{k: v for k, v in r.items() if k != "created"} for r in rows[:3]])
    assert no_order.created is None and no_order.extended(("v2",), [rows[3]]) is None


def test_an_update_replaces_the_rows_postings() -> None:
    rows = _rows([("fact", "memory", ["report", "friday"], False, 1), ("fact", "memory", ["dog"], False, 1)])
    old = ScopeCopy.build(("v1",), None, rows)
    edited = dict(rows[0], content="dinner with the board", updated=rows[0]["updated"] + 9)
    grown = old.extended(("v2",), [edited])
    assert grown is not None
    assert_same_copy(grown, ScopeCopy.build(("v2",), None, [edited, rows[1]]))
    assert "friday" not in grown.bm25.postings and "friday" in old.bm25.postings  # gone, as in a full build


def test_the_first_rows_of_an_empty_copy_are_appended() -> None:
    rows = _rows([("episodic", "memory", ["dog", "tram"], False, 1), ("episodic", "memory", ["dog"], False, 1)])
    grown = ScopeCopy.build(("v1",), None, []).extended(("v2",), rows)
    assert grown is not None
    assert_same_copy(grown, ScopeCopy.build(("v2",), None, rows))
    assert lexical.tokens("dog")[0] in grown.bm25.postings


def test_deleting_every_row_of_a_term_drops_the_term() -> None:
    rows = _rows([("episodic", "memory", ["zephyr", "dog"], False, 1), ("episodic", "memory", ["dog"], False, 1),
                  ("episodic", "memory", ["tram"], False, 1)])
    old = ScopeCopy.build(("v1",), None, rows)
    grown = old.extended(("v2",), [], [rows[0]["id"]])
    assert grown is not None
    assert_same_copy(grown, ScopeCopy.build(("v2",), None, rows[1:]))
    assert lexical.tokens("zephyr")[0] not in grown.bm25.postings and list(grown.episodes) == [0, 1]


@settings(max_examples=150)
@given(st.lists(_row, min_size=0, max_size=40), st.lists(st.tuples(st.integers(0, 45), st.integers(-2, 2),
                                                                    st.booleans()), max_size=30))
def test_held_is_whether_the_copy_holds_the_row_with_that_stamp(spec: list[Any],
                                                                  asks: list[tuple[int, int, bool]]) -> None:
    """`held` (vectorised: a delta's look-back window can be tens of thousands of rows) answers what a row by row
    look-up answers: the copy holds the row of this (created, id) and its write stamp is this one. Created times
    repeat (a batch's instant, ties by id) and some rows asked about are not in the copy."""
    rows = _rows(spec)
    copy = ScopeCopy.build(("v1",), None, rows)
    ask = []
    for at, moved, other_id in asks:
        base = rows[at] if at < len(rows) else {"id": f"x{at}", "created": 1_700_000_000_000_000_000 + at,
                                                "updated": 1_700_000_000_000_000_000 + at}
        ask.append(dict(base, id=f"y{at}" if other_id else base["id"], updated=base["updated"] + moved))
    ask.append({"id": "no-created", "created": None, "updated": 1})
    expected = []
    for r in ask:
        p = None if r["created"] is None else copy._position((int(r["created"]), str(r["id"])))
        expected.append(p is not None and int(copy.stamps[p]) == r["updated"])  # type: ignore[index]
    assert copy.held(ask).tolist() == expected
    assert copy.holding([r["id"] for r in ask]) == [x for x in copy.ids if x in {r["id"] for r in ask}]
