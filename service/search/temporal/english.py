"""English time expressions: tokens, and a grammar over them whose every rule reads a bounded number of tokens
from where it starts (so a text is read in time linear in its length)."""

from __future__ import annotations

import re
from datetime import date, timedelta

from service.search.temporal import spans
from service.search.temporal.spans import Span

_TOKEN = re.compile(r"[0-9]+|[A-Za-z]+|\S")
_MONTHS = {"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
           "september": 9, "october": 10, "november": 11, "december": 12, "jan": 1, "feb": 2, "mar": 3, "apr": 4,
           "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12}
# Months that are also common words or names: read as months only with a day, a year or a preposition.
_WORDLIKE = frozenset({"march", "may", "april", "june", "august", "jan", "mar", "apr", "jun", "jul", "aug", "sep",
                       "sept", "oct", "nov", "dec"})
_MODAL = frozenset({"may", "march", "mar"})  # … and after this / last / next, only capitalised ("this may help")
_WEEKDAYS = {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6}
# Abbreviations, only capitalised after last / this / next ("last Fri"; "this sun" is not a day).
_WEEKDAY_ABBR = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4, "sat": 5,
                 "sun": 6}
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "last": 5}
# After "on the 15th" or a bare year ("in 2022"): words that end the date rather than make it a count of things
# ("on the 15th after my trip", "in 2022 we moved"; not "on the 3rd floor", "in 2022 steps").
_ENDS_DATE = frozenset({"after", "before", "at", "in", "on", "of", "for", "from", "until", "till", "by", "as", "and",
                        "or", "but", "when", "so", "because", "with", "to", "then", "there", "i", "we", "you", "he",
                        "she", "they", "it", "my", "our", "your", "his", "her", "their", "this", "that", "the", "a",
                        "an", "was", "were", "is", "are", "had", "has", "have", "did", "will", "would"})
_UNITS = {"day": "day", "days": "day", "week": "week", "weeks": "week", "weekend": "weekend", "weekends": "weekend",
          "month": "month", "months": "month", "year": "year", "years": "year", "decade": "decade",
          "decades": "decade", "fortnight": "fortnight", "fortnights": "fortnight"}
_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
            "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
            "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
            "a": 1, "an": 1}
_TENS = frozenset({"twenty", "thirty", "forty", "fifty"})
# Words after which a month name or a year is a time ("in May", "since 2019", "the end of May").
_MONTH_PREP = frozenset({"in", "during", "since", "until", "till", "by", "of", "from", "before", "after", "through",
                         "throughout", "early", "mid", "late", "around", "last", "this", "next", "past", "coming"})
_YEAR_PREP = frozenset({"in", "during", "since", "until", "till", "by", "of", "from", "before", "after", "through",
                        "throughout", "early", "mid", "late", "around", "year", "circa"})
_PARTS = {"early": "early", "beginning": "early", "start": "early", "mid": "mid", "middle": "mid", "late": "late",
          "end": "late"}


# An expression starts at one of these words or at a number (the scan tries no other token).
_STARTS = (frozenset({"the", "a", "an", "couple", "few", "several", "early", "mid", "late", "last", "this", "next",
                      "past", "coming", "earlier", "later", "on", "today", "tonight", "yesterday", "tomorrow",
                      "beginning", "start", "middle", "end"})
           | _NUMBERS.keys() | _MONTHS.keys() | _WEEKDAYS.keys() | spans.SEASONS.keys())
# … and contains one of these, or a four-digit number: a text without any holds no expression.
_TRIGGERS = (frozenset({"today", "tonight", "yesterday", "tomorrow", "ago", "night", "morning", "afternoon",
                        "evening", "st", "nd", "rd", "th"})
             | _UNITS.keys() | _MONTHS.keys() | _WEEKDAYS.keys() | _WEEKDAY_ABBR.keys() | spans.SEASONS.keys())
_REACH = 4
_LETTERS = re.compile(r"[a-z]+")
_FOUR_DIGITS = re.compile(r"[0-9]{4}")
_ORDINAL_SUFFIX = frozenset({"st", "nd", "rd", "th"})

Parsed = tuple[int, Span]  # the token index after the expression, and its span


class Tokens:
    """A text's tokens as parallel lists: lower-cased text, as written, character offsets, and the value of a digit
    run (None for a word; an ordinal's "st" / "nd" / "rd" / "th" joins its number: "1st")."""

    __slots__ = ("low", "raw", "start", "end", "num")

    def __init__(self, text: str) -> None:
        found = [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]
        self.raw = [f[0] for f in found]
        self.start = [f[1] for f in found]
        self.end = [f[2] for f in found]
        self.low = [r.lower() for r in self.raw]
        # The regex's [0-9]+ only (not "²", which str.isdigit also takes).
        self.num: list[int | None] = [int(r) if "0" <= r[0] <= "9" and len(r) <= 9 else None for r in self.raw]
        if not _ORDINAL_SUFFIX.isdisjoint(self.low):
            self._ordinals()

    def _ordinals(self) -> None:
        """Join each "st" / "nd" / "rd" / "th" written right after a number to it: "1st", "23rd"."""
        i = 1
        while i < len(self.low):
            if (self.low[i] in _ORDINAL_SUFFIX and self.num[i - 1] is not None and self.end[i - 1] == self.start[i]
                    and self.low[i - 1].isdigit()):
                self.low[i - 1] += self.low[i]
                self.raw[i - 1] += self.raw[i]
                self.end[i - 1] = self.end[i]
                for column in (self.low, self.raw, self.start, self.end, self.num):
                    del column[i]
            else:
                i += 1


def might_hold(text: str) -> bool:
    """False when no expression can be in the text: it has no trigger word and no four-digit number. (Cheap: two
    regex passes in C; most texts stop here.)"""
    return not _TRIGGERS.isdisjoint(_LETTERS.findall(text.lower())) or _FOUR_DIGITS.search(text) is not None


def scan(text: str, today: date) -> list[tuple[int, int, Span]]:
    """Every English expression in the text, as (first character, end character, span); none overlap."""
    if not might_hold(text):
        return []
    toks = Tokens(text)
    return [(toks.start[a], toks.end[b - 1], span) for a, b, span in _Grammar(toks, today).scan()]


class _Grammar:
    """The English grammar over one text's tokens. Every rule reads a bounded number of tokens from its start, so a
    text is read in time linear in its length."""

    def __init__(self, toks: Tokens, today: date) -> None:
        self.t = toks
        self.n = len(toks.low)
        self.today = today

    def low(self, i: int) -> str:
        return self.t.low[i] if 0 <= i < self.n else ""

    def num(self, i: int) -> int | None:
        return self.t.num[i] if 0 <= i < self.n else None

    def upper(self, i: int) -> bool:
        """Token i is capitalised as written."""
        return 0 <= i < self.n and self.t.raw[i][0].isupper()

    def digits(self, i: int) -> int:
        """How many digits token i has (0 for a word)."""
        return len(self.t.low[i].rstrip("stndrh")) if 0 <= i < self.n and self.t.num[i] is not None else 0

    def adjacent(self, i: int) -> bool:
        """Token i starts where token i-1 ends."""
        return 0 < i < self.n and self.t.end[i - 1] == self.t.start[i]

    def scan(self) -> list[tuple[int, int, Span]]:
        out: list[tuple[int, int, Span]] = []
        low, num = self.t.low, self.t.num
        # Every expression has a trigger (a unit, month, weekday, season, number…) at most _REACH tokens after its
        # start ("a couple of weeks ago", "the beginning of November"): start only where one is that near.
        near = [False] * self.n
        gap = _REACH + 1
        for i in range(self.n - 1, -1, -1):
            gap = 0 if (num[i] is not None or low[i] in _TRIGGERS) else gap + 1
            near[i] = gap <= _REACH
        i = 0
        while i < self.n:
            hit = self.expr(i) if near[i] and (low[i] in _STARTS or num[i] is not None) else None
            if hit is not None and hit[1][0] < hit[1][1]:
                out.append((i, hit[0], hit[1]))
                i = hit[0]
            else:
                i += 1
        return out

    # -- the top level: anchors and parts around a core expression --

    def expr(self, i: int) -> Parsed | None:
        for rule in (self.anchored, self.parted, self.core):
            hit = rule(i)
            if hit is not None:
                return hit
        return None

    def anchored(self, i: int) -> Parsed | None:
        """"the week before <…>", "two weeks after <…>", "the Friday before <…>", "the week of <…>"."""
        j, n = i, 1
        if self.low(j) == "the":
            j += 1
        else:
            count = self.count(j)
            if count is None:
                return None
            j, (n, _) = count
        unit = _UNITS.get(self.low(j))
        wd = _WEEKDAYS.get(self.low(j))
        if unit is None and wd is None:
            return None
        rel = self.low(j + 1)
        if rel == "of" and unit == "week" and n == 1:
            anchor = self.parted(j + 2) or self.core(j + 2)
            if anchor is None:
                return None
            lo = spans.week(anchor[1][0])
            return anchor[0], (lo, lo + timedelta(weeks=1))
        if rel not in ("before", "after"):
            return None
        anchor = self.parted(j + 2) or self.core(j + 2)
        if anchor is None:
            return None
        sign = 1 if rel == "before" else -1
        if wd is not None:
            if rel == "before":
                day = spans.weekday_before(anchor[1][0], wd)
            else:
                end = anchor[1][1]
                day = end + timedelta(days=(wd - end.weekday()) % 7)
            return anchor[0], spans.day_span(day)
        if unit == "fortnight":
            unit, n = "week", 2 * n
        assert unit is not None
        span = spans.before(anchor[1], unit, sign * n)
        return (anchor[0], span) if span is not None else None

    def parted(self, i: int) -> Parsed | None:
        """"early May", "mid-2022", "the beginning of November 2022", "the end of last year"."""
        j = i + 1 if self.low(i) == "the" else i
        word = self.low(j)
        part = _PARTS.get(word)
        if part is None:
            return None
        if word in ("early", "mid", "late"):
            if j == i + 1:
                return None  # "the early …" is not a part of a time
            k = j + 2 if self.low(j + 1) == "-" else j + 1
        else:
            if self.low(j + 1) != "of":
                return None
            k = j + 2
        inner = self.core(k)
        if inner is None:
            return None
        return inner[0], spans.part(inner[1], part)

    # -- the core expressions --

    def core(self, i: int) -> Parsed | None:
        for rule in (self.relative_day, self.nth_week, self.past_n, self.determined, self.ago, self.nth_day, self.date,
                     self.signalled, self.weekday):
            hit = rule(i)
            if hit is not None:
                return hit
        return None

    def relative_day(self, i: int) -> Parsed | None:
        w, today = self.low(i), self.today
        if w in ("today", "tonight"):
            return i + 1, spans.day_span(today)
        if w == "yesterday":
            return i + 1, spans.day_span(today - spans.DAY)
        if w == "tomorrow":
            return i + 1, spans.day_span(today + spans.DAY)
        if w == "the" and self.low(i + 1) == "day" and self.low(i + 2) in ("before", "after"):
            nxt = self.low(i + 3)
            if self.low(i + 2) == "before" and nxt == "yesterday":
                return i + 4, spans.day_span(today - 2 * spans.DAY)
            if self.low(i + 2) == "after" and nxt == "tomorrow":
                return i + 4, spans.day_span(today + 2 * spans.DAY)
        if w == "last" and self.low(i + 1) == "night":
            return i + 2, spans.day_span(today - spans.DAY)
        if w == "this" and self.low(i + 1) in ("morning", "afternoon", "evening"):
            return i + 2, spans.day_span(today)
        if w == "the" and self.low(i + 1) == "other" and self.low(i + 2) == "day":
            return i + 3, (today - timedelta(days=7), today)
        return None

    def determined(self, i: int) -> Parsed | None:
        """last / this / next / past / coming + week, weekend, month, year, a weekday, a season or a month name;
        "this past week", "earlier this month"."""
        w = self.low(i)
        if w in ("earlier", "later") and self.low(i + 1) == "this":
            hit = self.determined(i + 1)
            if hit is None:
                return None
            lo, hi = hit[1]
            today = self.today
            return hit[0], ((lo, min(hi, today + spans.DAY)) if w == "earlier" else (max(lo, today), hi))
        if w not in ("last", "this", "next", "past", "coming"):
            return None
        j = i + 1
        which = {"past": "last", "coming": "next"}.get(w, w)
        if w == "this" and self.low(j) in ("past", "coming"):
            which = "last" if self.low(j) == "past" else "next"
            j += 1
        word, today = self.low(j), self.today
        step = {"last": 1, "this": 0, "next": -1}[which]
        if word in ("week", "weekend", "month", "year", "decade"):
            span = spans.unit_back(word, today, step)
            return (j + 1, span) if span is not None else None
        if word in _WEEKDAYS or (word in _WEEKDAY_ABBR and self.upper(j)):
            wd = _WEEKDAYS.get(word, _WEEKDAY_ABBR.get(word, 0))
            if which == "last":
                day = spans.weekday_before(today, wd)
            elif which == "this":
                day = spans.week(today) + timedelta(days=wd)
            else:
                day = today + timedelta(days=(wd - today.weekday()) % 7 or 7)
            return j + 1, spans.day_span(day)
        if word in spans.SEASONS:
            span = spans.season_rel(spans.SEASONS[word], today, which)
            return (j + 1, span) if span is not None else None
        if word in _MONTHS:
            if word in _MODAL and not self.upper(j):
                return None
            year = self.year(j + 1, allow_comma=True)
            if year is not None:  # "last May 2022": the year wins
                span = spans.month_span(year[1], _MONTHS[word])
                return (year[0], span) if span is not None else None
            span = spans.recent_month(_MONTHS[word], today, which)
            return (j + 1, span) if span is not None else None
        return None

    def recent_window(self, j: int, unit: str, n: int) -> Parsed | None:
        """The last `n` units up to and including today ("the past week", "the last 3 days")."""
        today = self.today
        days = {"day": 1, "week": 7, "fortnight": 14, "month": 30, "year": 365, "decade": 3652}.get(unit)
        if days is None:
            return None
        lo = spans.shift(today, -days * n + 1)
        return (j + 1, (lo, today + spans.DAY)) if lo is not None else None

    def count(self, i: int) -> tuple[int, tuple[int, int]] | None:
        """A count before a unit: 3, three, twenty-one, a, a couple of, a few, several → (next index, (lo, hi))."""
        w, n = self.low(i), self.num(i)
        if n is not None and not self.ordinal(i) and 0 < n <= 10_000:
            return i + 1, (n, n)
        if w == "a" and self.low(i + 1) == "couple":
            return (i + 3 if self.low(i + 2) == "of" else i + 2), (2, 3)
        if w == "couple" and self.low(i + 1) == "of":
            return i + 2, (2, 3)
        if w == "a" and self.low(i + 1) == "few":
            return i + 2, (2, 4)
        if w == "few":
            return i + 1, (2, 4)
        if w == "several":
            return i + 1, (3, 7)
        if w in _TENS:
            k = i + 2 if self.low(i + 1) == "-" else i + 1
            unit = _NUMBERS.get(self.low(k))
            if unit is not None and 1 <= unit <= 9 and self.low(k) not in ("a", "an"):
                v = _NUMBERS[w] + unit
                return k + 1, (v, v)
        if w in _NUMBERS:
            v = _NUMBERS[w]
            return i + 1, (v, v)
        return None

    def ago(self, i: int) -> Parsed | None:
        """"three days ago", "a week ago", "a few months ago", "two years from now"."""
        c = self.count(i)
        if c is None:
            return None
        j, (lo, hi) = c
        unit = _UNITS.get(self.low(j))
        if unit is None:
            return None
        if unit == "fortnight":
            unit, lo, hi = "week", 2 * lo, 2 * hi
        if self.low(j + 1) == "ago":
            span = spans.units_back(unit, self.today, lo, hi)
            return (j + 2, span) if span is not None else None
        if self.low(j + 1) == "from" and self.low(j + 2) == "now":
            span = spans.units_back(unit, self.today, -hi, -lo)
            return (j + 3, span) if span is not None else None
        return None

    def past_n(self, i: int) -> Parsed | None:
        """"the past week" (the 7 days up to today), "the past 3 days", "the last two weeks", "the past few
        months"."""
        if self.low(i) != "the" or self.low(i + 1) not in ("past", "last"):
            return None
        if self.low(i + 2) in ("week", "month", "year", "decade", "fortnight"):
            return self.recent_window(i + 2, self.low(i + 2), 1)
        c = self.count(i + 2)
        if c is None:
            return None
        j, (_, hi) = c
        unit = _UNITS.get(self.low(j))
        return self.recent_window(j, unit, hi) if unit is not None else None

    def nth_week(self, i: int) -> Parsed | None:
        """"the second week of November [2022]": days 1–7, 8–14, 15–21, 22–28 of the month, the last week its
        last seven days."""
        if self.low(i) != "the" or self.low(i + 1) not in _ORDINALS or self.low(i + 2) != "week" or (
                self.low(i + 3) != "of"):
            return None
        inner = self.date(i + 4) or self.signalled_month(i + 4)
        if inner is None or (inner[1][1] - inner[1][0]).days < 28:
            return None
        lo, hi = inner[1]
        k = _ORDINALS[self.low(i + 1)]
        start = hi - timedelta(days=7) if k == 5 else lo + timedelta(days=7 * (k - 1))
        return inner[0], (start, start + timedelta(days=7))

    def signalled_month(self, i: int) -> Parsed | None:
        """A month name after "of" (the n-th week of May): the most recent such month at or before today."""
        m = _MONTHS.get(self.low(i))
        if m is None or (self.low(i) in _WORDLIKE and not self.upper(i)):
            return None
        span = spans.recent_month(m, self.today)
        return (i + 1, span) if span is not None else None

    def nth_day(self, i: int) -> Parsed | None:
        """"on the 15th" (no month): the most recent 15th at or before today. Only where the ordinal ends the
        phrase (punctuation, the text's end or a function word after it)."""
        if self.low(i) != "on" or self.low(i + 1) != "the" or not self.ordinal(i + 2):
            return None
        d = self.num(i + 2)
        nxt = self.low(i + 3)
        if d is None or not 1 <= d <= 31 or nxt in ("of", "-") or nxt in _MONTHS or (
                nxt and nxt[0].isalnum() and nxt not in _ENDS_DATE):
            return None
        today = self.today
        for back in range(0, 12):
            first = spans.month(today.year, today.month, -back)
            day = spans.safe_date(first.year, first.month, d) if first is not None else None
            if day is not None and day <= today:
                return i + 3, spans.day_span(day)
        return None

    def year(self, i: int, *, allow_comma: bool = False) -> tuple[int, int] | None:
        """A four-digit year at token i (after an optional comma or "of"): (next index, year)."""
        j = i
        if allow_comma and self.low(j) in (",", "of"):
            j += 1
        n = self.num(j)
        if n is not None and self.digits(j) == 4 and 1000 <= n <= 2999 and not self.ordinal(j):
            return j + 1, n
        return None

    def ordinal(self, i: int) -> bool:
        """Token i is an ordinal: 1st, 2nd, 23rd, 4th."""
        return 0 <= i < self.n and self.t.num[i] is not None and not self.t.low[i].isdigit()

    def day_number(self, i: int) -> int | None:
        n = self.num(i)
        if n is None or not 1 <= n <= 31 or self.digits(i) > 2:
            return None
        if self.low(i + 1) == ":" or self.low(i + 1) in _UNITS or self.low(i + 1) in ("am", "pm"):
            return None  # "May 5:30", "May 3 days", "3 pm"
        return n

    def date(self, i: int) -> Parsed | None:
        """An absolute date: ISO (2023-05-03), "[the] 1[st] [of] May[,] [2022]", "May 1[st][,] [2022]", "May[,]
        2022", "summer [of] 2022"."""
        n = self.num(i)
        if n is not None and self.digits(i) == 4 and self.low(i + 1) in ("-", "/") and self.adjacent(i + 1):
            m, d = self.num(i + 2), self.num(i + 4)
            if (m is not None and d is not None and self.low(i + 3) == self.low(i + 1) and self.adjacent(i + 2)
                    and self.adjacent(i + 3) and self.adjacent(i + 4)):
                day = spans.safe_date(n, m, d)
                if day is not None:
                    return i + 5, spans.day_span(day)
            return None
        j = i + 1 if self.low(i) == "the" else i
        d = self.day_number(j)
        if d is not None:
            k = j + 2 if self.low(j + 1) == "of" else j + 1
            m = _MONTHS.get(self.low(k))
            if m is None or (j > i and k == j + 1 and not self.ordinal(j)):
                return None  # "the 3 May" is not a date; "the 3rd May", "the 3rd of May", "3 May" are
            return self.day_month(k + 1, m, d)
        w = self.low(i)
        if w in _MONTHS:
            m = _MONTHS[w]
            k = i + 1
            if self.low(k) == "the":
                k += 1
            d = self.day_number(k)
            if d is not None and not (self.num(k + 1) is not None and self.adjacent(k + 1)):
                return self.day_month(k + 1, m, d)
            year = self.year(i + 1, allow_comma=True)
            if year is not None:
                span = spans.month_span(year[1], m)
                return (year[0], span) if span is not None else None
            return None
        if w in spans.SEASONS:
            year = self.year(i + 1, allow_comma=True)
            if year is not None:
                span = spans.season(spans.SEASONS[w], year[1])  # winter 2022: December 2022 to February 2023
                return (year[0], span) if span is not None else None
        return None

    def day_month(self, k: int, m: int, d: int) -> Parsed | None:
        """After a day and a month: an optional year; without one, the most recent such day at or before today."""
        year = self.year(k, allow_comma=True)
        if year is not None:
            day = spans.safe_date(year[1], m, d)
            return (year[0], spans.day_span(day)) if day is not None else None
        span = spans.recent_day(m, d, self.today)
        return (k, span) if span is not None else None

    def signalled(self, i: int) -> Parsed | None:
        """A month name, a season or a year that a preposition marks as a time: "in May", "during the summer",
        "since 2019", "of 2022"; a month name that is no other word needs none ("September was hot"). Any of
        them: the most recent at or before today."""
        prev = self.low(i - 1)
        w = self.low(i)
        if w == "the" and self.low(i + 1) in spans.SEASONS and prev in _MONTH_PREP:
            i, w = i + 1, self.low(i + 1)
        if prev == "-" and self.low(i - 2) == "mid":
            prev = "mid"
        if w in _MONTHS and w not in _WORDLIKE and self.low(i + 1) != "'" and prev not in (
                "last", "this", "next", "past", "coming"):
            span = spans.recent_month(_MONTHS[w], self.today)
            return (i + 1, span) if span is not None else None
        if prev not in _MONTH_PREP and prev not in _YEAR_PREP:
            return None
        if w in _MONTHS and prev in _MONTH_PREP and prev not in ("last", "this", "next", "past", "coming"):
            if self.low(i + 1) == "'" or (w in _WORDLIKE and w != "may" and len(w) <= 4 and not
                                          self.upper(i)):
                return None  # "in June's house"; "in mar" is not a month, "in Mar" may be
            span = spans.recent_month(_MONTHS[w], self.today)
            return (i + 1, span) if span is not None else None
        if w in spans.SEASONS and prev in _MONTH_PREP and prev not in ("last", "this", "next", "past", "coming"):
            span = spans.season_rel(spans.SEASONS[w], self.today, "in")
            return (i + 1, span) if span is not None else None
        if prev in _YEAR_PREP:
            year = self.year(i)
            nxt = self.low(year[0]) if year is not None else ""
            if year is not None and 1900 <= year[1] <= 2100 and (not nxt[:1].isalnum() or nxt in _ENDS_DATE):
                span = spans.year_span(year[1])
                return (year[0], span) if span is not None else None
        return None

    def weekday(self, i: int) -> Parsed | None:
        """A bare weekday ("on Friday"): the most recent one before today. Not a plural ("on Fridays")."""
        wd = _WEEKDAYS.get(self.low(i))
        if wd is None:
            return None
        return i + 1, spans.day_span(spans.weekday_before(self.today, wd))




# "When did …", "how long ago …", "what year …", "since when …".
_WHEN_AUX = frozenset({"did", "do", "does", "is", "was", "were", "are", "will", "would", "has", "have", "had", "can",
                       "could", "should", "shall", "might", "may", "must", "exactly", "approximately", "roughly"})
_CLAUSE = frozenset({",", ".", "?", "!", ";", ":", "since", "until", "till", "and", "or", "so", "but", "exactly",
                     "\"", "("})
_TIME_NOUNS = frozenset({"time", "date", "dates", "day", "days", "year", "years", "month", "months", "week", "weeks",
                         "weekend", "season", "decade", "century"})


def asks(text: str) -> bool:
    """Whether an English query asks about time (see resolver.asks_about_time)."""
    words = Tokens(text).low
    for i, w in enumerate(words):
        nxt = words[i + 1] if i + 1 < len(words) else ""
        after = words[i + 2] if i + 2 < len(words) else ""
        if w == "when" and (i == 0 or words[i - 1] in _CLAUSE or nxt in _WHEN_AUX or nxt in ("?", "")):
            return True
        if w == "how" and (nxt in ("long", "soon", "recently") or (nxt in ("many", "much") and after in _TIME_NOUNS)):
            return True
        if w in ("what", "which") and nxt in _TIME_NOUNS:
            return True
        if w == "in" and nxt in ("which", "what") and after in _TIME_NOUNS:
            return True
    return False
