"""Time in ranking: what a query says about time (the intervals it names, whether it asks when), when each row
happened (occurred_at) and the intervals its own text names, and the multiplier they give a row's lexical score
(service/search/scope_index.py). Columns are int64 nanoseconds since the epoch, like the scope copy's `created`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo

import numpy as np

from service.search.temporal import english
from service.search.temporal.chinese import HAN as _HAN
from service.search.temporal.resolver import TimeRef, asks_about_time, resolve

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_I64 = np.iinfo(np.int64)
_NS_DAY = 86_400 * 10**9


def ns(d: datetime) -> int:
    """A tz-aware time as nanoseconds since the epoch, clipped to int64 (years 1677–2262)."""
    return int(min(max((d - _EPOCH) // timedelta(microseconds=1) * 1000, _I64.min), _I64.max))


@dataclass(frozen=True, slots=True)
class QueryTime:
    """What a query says about time, resolved against its `now`: the intervals it names and whether it asks."""

    now: datetime
    refs: tuple[TimeRef, ...]
    asks: bool

    @property
    def active(self) -> bool:
        return bool(self.refs) or self.asks


def query_time(query: str, now: datetime) -> QueryTime:
    """The query's time expressions resolved against `now` (tz-aware), and whether it asks about time."""
    return QueryTime(now, tuple(resolve(query, now)), asks_about_time(query))


@dataclass(frozen=True, slots=True)
class RowTimes:
    """The intervals rows' own texts name, each resolved against its row's occurred_at, as flat columns: the row of
    each interval (ascending; a row's intervals in text order), its start and its end."""

    row: np.ndarray
    lo: np.ndarray
    hi: np.ndarray

    @property
    def nbytes(self) -> int:
        return int(self.row.nbytes + self.lo.nbytes + self.hi.nbytes)

    def removed(self, gone: np.ndarray) -> RowTimes:
        """Without the rows at the sorted positions `gone`, later rows moved up (ScopeCopy's deletions)."""
        keep = ~np.isin(self.row, gone)
        row = self.row[keep]
        return RowTimes(row - np.searchsorted(gone, row), self.lo[keep], self.hi[keep])

    def appended(self, new: RowTimes, offset: int) -> RowTimes:
        """With `new`'s rows after this one's, their positions moved by `offset` (ScopeCopy's new rows)."""
        return RowTimes(np.concatenate((self.row, new.row + offset)), np.concatenate((self.lo, new.lo)),
                        np.concatenate((self.hi, new.hi)))

    def replaced(self, rows: Sequence[int], new: RowTimes) -> RowTimes:
        """With the intervals of `rows` replaced by `new`'s (rows among them, positions absolute: an update)."""
        keep = ~np.isin(self.row, np.asarray(rows, dtype=np.int64))
        row = np.concatenate((self.row[keep], new.row))
        order = np.argsort(row, kind="stable")  # rows are disjoint: each row's intervals keep their order
        return RowTimes(row[order], np.concatenate((self.lo[keep], new.lo))[order],
                        np.concatenate((self.hi[keep], new.hi))[order])


def said_of(text: str, occurred: int, tz: tzinfo = UTC) -> list[int]:
    """The intervals a text names, resolved against its occurred_at (ns since the epoch, its day read in `tz`), flat:
    [start, end, start, end, …] in ns. "yesterday" in a text that occurred on 8 May is 7 May. What a row may store
    when it is saved, so that a scope copy need not resolve it (row_times' `stored`)."""
    if not english.might_hold(text) and _HAN.search(text) is None:
        return []  # nearly every text: no time expression can be in it
    try:
        now = (_EPOCH + timedelta(microseconds=int(occurred) // 1000)).astimezone(tz)
    except (OverflowError, ValueError):
        return []
    return [x for ref in resolve(text, now) for x in (ns(ref.start), ns(ref.end))]


def row_times(texts: Sequence[str], occurred: Sequence[int] | np.ndarray, rows: Sequence[int] | None = None,
              stored: Sequence[Sequence[int] | None] | None = None) -> RowTimes:
    """The intervals rows' texts name (said_of each text against its occurred_at), as columns; `rows` are the
    texts' positions (default 0, 1, …). Where `stored` holds a row's said_of computed when it was saved (not None),
    that is taken instead of resolving the text again."""
    at_rows: list[int] = []
    flat: list[int] = []
    occ = occurred.tolist() if isinstance(occurred, np.ndarray) else list(occurred)
    for k, (text, when) in enumerate(zip(texts, occ, strict=True)):
        kept = stored[k] if stored is not None else None
        pairs = said_of(text, when) if kept is None else [int(x) for x in kept]
        at_rows += [rows[k] if rows is not None else k] * (len(pairs) // 2)
        flat += pairs[:len(pairs) // 2 * 2]
    pairs_ns = np.array(flat, dtype=np.int64).reshape(-1, 2)
    return RowTimes(np.array(at_rows, dtype=np.int64), pairs_ns[:, 0].copy(), pairs_ns[:, 1].copy())


@dataclass(frozen=True, slots=True)
class TimeRule:
    """How a query's time moves a row's lexical score: a multiplier, so a row the query's words do not match stays
    at zero and the order among rows the rule treats alike is kept.

    - The query names intervals ("in May", "last week", "on 1 May, 2022"): a row gains `boost` when it occurred in
      one of them or up to `lag_days` after it ends (a thing is told after it happens: "I went yesterday"), and
      `boost` again when an interval its own text names overlaps one ("yesterday", said on 2 May, is 1 May).
    - The query asks about time ("When did …", "什么时候"): a row whose own text names a time gains
      `states_boost` (the answer to "when" is a row that says when).
    Each gain is scaled by the share of the scope's rows its signal leaves out: a signal every row has ("in 2023"
    in a scope that is all 2023) tells nothing and moves nothing; one that picks a few rows counts in full.
    multiplier = 1 + boost × (s_occ × occurred in + s_text × text in) + states_boost × s_states × (asks and the
    text names a time), s = 1 − (rows with the signal) / (rows)."""

    boost: float = 2.0
    lag_days: float = 7.0
    states_boost: float = 0.5


DEFAULT_RULE = TimeRule()


def time_weights(q: QueryTime, occurred: np.ndarray, said: RowTimes | None,
                 rule: TimeRule = DEFAULT_RULE) -> np.ndarray | None:
    """Each row's multiplier for the query (copy order), or None when the query says nothing about time (the
    scores stay as they are). `occurred`: the rows' occurred_at; `said`: their texts' intervals (None: not known,
    only occurred_at counts)."""
    if not q.active:
        return None
    n = len(occurred)
    w = np.ones(n)
    if q.refs and rule.boost:
        lag = int(rule.lag_days * _NS_DAY)
        occ_in = np.zeros(n, dtype=bool)
        said_in = np.zeros(n, dtype=bool)
        for ref in q.refs:
            a, b = ns(ref.start), ns(ref.end)
            occ_in |= (occurred >= a) & (occurred < min(b, _I64.max - lag) + lag)
            if said is not None and len(said.row):
                said_in[said.row[(said.lo < b) & (said.hi > a)]] = True
        w += rule.boost * (_selective(occ_in) + _selective(said_in))
    if q.asks and rule.states_boost and said is not None and len(said.row):
        states = np.zeros(n, dtype=bool)
        states[said.row] = True
        w += rule.states_boost * _selective(states)
    return w


def _selective(signal: np.ndarray) -> np.ndarray:
    """A row signal (bool) as 0 / its selectivity: 1 − the share of rows that have it."""
    return signal * (1.0 - float(signal.mean())) if len(signal) else signal.astype(np.float64)
