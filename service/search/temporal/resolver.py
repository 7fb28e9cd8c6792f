"""The resolver: every time expression of a text, English and Chinese, as intervals; and whether a query asks
about time. The rules are in the package's docstring (service/search/temporal/__init__.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, tzinfo

from service.search.temporal import chinese, english
from service.search.temporal.spans import Span


@dataclass(frozen=True, slots=True)
class TimeRef:
    """One time expression found in a text: what it said, where, and the interval it means."""

    text: str                 # the expression as written
    at: tuple[int, int]       # its character offsets in the text
    start: datetime           # the interval [start, end), in the reference time's timezone
    end: datetime


def _at(d: date, tz: tzinfo | None) -> datetime:
    return datetime.combine(d, time(0), tzinfo=tz)


def resolve(text: str, now: datetime) -> list[TimeRef]:
    """Every time expression in `text` (English or Chinese), resolved against `now` (tz-aware): in text order, none
    overlapping (where two would, the one that starts first, then the longer). Never raises on any text."""
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    today = now.date()
    found: list[tuple[int, int, Span]] = []
    try:
        found = english.scan(text, today)
    except (OverflowError, ValueError):  # a date past year 9999 or before year 1: no interval
        found = []
    found += chinese.scan(text, today)
    found.sort(key=lambda f: (f[0], -f[1]))
    out: list[TimeRef] = []
    end = -1
    for a, b, (lo, hi) in found:
        if a >= end:
            try:
                out.append(TimeRef(text[a:b], (a, b), _at(lo, now.tzinfo), _at(hi, now.tzinfo)))
            except (OverflowError, ValueError):
                continue
            end = b
    return out


def asks_about_time(text: str) -> bool:
    """Whether a query asks about time: an interrogative "when" (first in the query or in a clause, or followed by
    an auxiliary: "When did …", "… and when was it?"), "since / until when", "how long", "how soon", "how many
    days / weeks / months / years", "what / which + a time noun" ("what year", "which month"), or a Chinese question
    word of time (什么时候, 何时, 哪天, 哪一年, 几月, 多久 …). A subordinate "when" ("What did she say when …") is not
    one."""
    return chinese.asks(text) or english.asks(text)
