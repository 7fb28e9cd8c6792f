"""Day intervals: half-open [lo, hi) spans of dates, and the calendar arithmetic the resolvers share (weeks start
on Monday; a season is three months, winter starting in December)."""

from __future__ import annotations

from datetime import date, timedelta

Span = tuple[date, date]  # a half-open interval of days [lo, hi)
DAY = timedelta(days=1)


def week(d: date) -> date:
    return d - timedelta(days=d.weekday())


def month(y: int, m: int, shift: int = 0) -> date | None:
    k = y * 12 + (m - 1) + shift
    return date(k // 12, k % 12 + 1, 1) if 1 <= k // 12 <= 9998 else None


def month_span(y: int, m: int, shift: int = 0) -> Span | None:
    lo, hi = month(y, m, shift), month(y, m, shift + 1)
    return (lo, hi) if lo is not None and hi is not None else None


def year_span(y: int) -> Span | None:
    return (date(y, 1, 1), date(y + 1, 1, 1)) if 1 <= y <= 9998 else None


def day_span(d: date) -> Span:
    return d, d + DAY


def safe_date(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except (ValueError, OverflowError):
        return None


def shift(d: date, days: int) -> date | None:
    try:
        return d + timedelta(days=days)
    except OverflowError:
        return None


def part(span: Span, part: str) -> Span:
    """The first ("early"), middle ("mid") or last ("late") third of a span."""
    lo, hi = span
    n = (hi - lo).days
    a, b = lo + timedelta(days=n // 3), lo + timedelta(days=2 * n // 3)
    return {"early": (lo, a), "mid": (a, b), "late": (b, hi)}.get(part, span)


SEASONS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}


def season(first_month: int, year: int) -> Span | None:
    """The season that starts in `first_month` of `year` (three months)."""
    lo, hi = month(year, first_month), month(year, first_month, 3)
    return (lo, hi) if lo is not None and hi is not None else None


def season_rel(first_month: int, today: date, which: str) -> Span | None:
    """The season relative to today: "this" (the one holding today, else this year's), "last" (the one before the
    one holding today, else the most recent that ended), "next" (the first that starts after today), "in" (this
    one if it has started, else the last)."""
    spans = [s for y in (today.year - 2, today.year - 1, today.year, today.year + 1)
             if (s := season(first_month, y)) is not None]
    holding = [s for s in spans if s[0] <= today < s[1]]
    ended = [s for s in spans if s[1] <= today]
    if which == "next":
        return next((s for s in spans if s[0] > today), None)
    if which == "last":
        if holding:
            before = [s for s in spans if s[1] <= holding[0][0]]
            return before[-1] if before else None
        return ended[-1] if ended else None
    if holding:
        return holding[0]
    if which == "this":
        return next((s for s in spans if s[0].year == today.year), None)
    return ended[-1] if ended else None


def recent_month(m: int, today: date, which: str = "in") -> Span | None:
    """Month `m`: "in" the most recent at or before today's month, "last" the most recent before it, "next" the
    first after it, "this" this year's."""
    y = today.year
    if which == "this":
        return month_span(y, m)
    if which == "next":
        return month_span(y if m > today.month else y + 1, m)
    if which == "last":
        return month_span(y if m < today.month else y - 1, m)
    return month_span(y if m <= today.month else y - 1, m)


def recent_day(m: int, d: int, today: date) -> Span | None:
    """The most recent day `d` of month `m` at or before today (a 29 February: in a leap year)."""
    for y in range(today.year, today.year - 9, -1):
        day = safe_date(y, m, d)
        if day is not None and day <= today:
            return day_span(day)
    return None


def weekday_before(anchor: date, wd: int) -> date:
    """The most recent weekday `wd` (Monday = 0) strictly before `anchor`."""
    back = (anchor.weekday() - wd) % 7 or 7
    return anchor - timedelta(days=back)


def unit_back(unit: str, today: date, n: int) -> Span | None:
    """The day, calendar week, weekend, month or year `n` units before today's (negative n: after)."""
    try:
        if unit == "day":
            return day_span(today - timedelta(days=n))
        if unit == "week":
            lo = week(today) - timedelta(weeks=n)
            return lo, lo + timedelta(weeks=1)
        if unit == "weekend":
            lo = week(today) - timedelta(weeks=n) + timedelta(days=5)
            return lo, lo + timedelta(days=2)
        if unit == "month":
            return month_span(today.year, today.month, -n)
        if unit == "year":
            return year_span(today.year - n)
        if unit == "decade":
            return year_span(today.year - 10 * n)
    except (OverflowError, ValueError):
        return None
    return None


def units_back(unit: str, today: date, lo_n: int, hi_n: int) -> Span | None:
    """From `hi_n` to `lo_n` units back, both included (a vague count: "a few days ago" is 2–4 days back)."""
    far, near = unit_back(unit, today, hi_n), unit_back(unit, today, lo_n)
    if far is None or near is None:
        return None
    return (min(far[0], near[0]), max(far[1], near[1]))


def before(span: Span, unit: str, n: int = 1) -> Span | None:
    """The `unit` before the start of `span` (n of them back: "two weeks before"); negative n: after its end."""
    lo, hi = span
    try:
        if unit == "day":
            return day_span(lo - timedelta(days=n)) if n > 0 else day_span(hi + timedelta(days=-n - 1))
        if unit == "week":
            return (lo - timedelta(weeks=n), lo - timedelta(weeks=n - 1)) if n > 0 else (
                hi + timedelta(weeks=-n - 1), hi + timedelta(weeks=-n))
        if unit == "weekend":  # the weekend that ends by the span's start (starts from its end)
            if n > 0:
                sat = weekday_before(lo - DAY if lo.weekday() == 6 else lo, 5) - timedelta(weeks=n - 1)
            else:
                sat = hi + timedelta(days=(5 - hi.weekday()) % 7) + timedelta(weeks=-n - 1)
            return sat, sat + timedelta(days=2)
        if unit == "month":
            return month_span(lo.year, lo.month, -n) if n > 0 else month_span(hi.year, hi.month, -n - 1)
        if unit == "year":
            return year_span(lo.year - n) if n > 0 else year_span(hi.year - n - 1)
    except (OverflowError, ValueError):
        return None
    return None


