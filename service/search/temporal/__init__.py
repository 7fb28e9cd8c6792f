"""Time in queries and texts: expressions such as "yesterday", "last week", "in May", "on 1 May, 2022", "the week
before 16 November 2023", "去年", "上个月", "五月" resolved against a reference time (the question's `now`, or a
record's own `occurred_at`) into half-open intervals [start, end), and whether a query asks about time at all.

Pure: no I/O; the standard library (and numpy for the ranking's columns). Linear in the text on any input: English
is read as tokens (one pass of a regex made of single character classes), each tried against a grammar whose
look-ahead is bounded by a constant (english.py); Chinese by one regex whose quantifiers are all bounded ({1,4} at
most), so no match attempt reads more than a few dozen characters (chinese.py). Nothing here raises on any text.
Day arithmetic is in spans.py, the ranking rule in ranking.py (docs/context-and-ranking.md, "Time in queries").

Resolution rules (the reference time's own day, in its own timezone, is "today"; weeks start on Monday):
- days: today, tonight, this morning, yesterday, last night, tomorrow, the day before yesterday; 今天, 昨天, 前天, 明天…
- weeks and weekends: last / this / next week (calendar weeks); the past week (the 7 days up to today); last
  weekend (Saturday and Sunday of last week); last Friday (the most recent Friday before today), this Friday, next
  Friday (the first after today), a bare "on Friday" (as "last Friday": memories are mostly told after the fact);
  上周, 这周, 下周, 上周末; 上周五 (the Friday of last week), 周五 (the most recent Friday)…
- months, years and seasons: last / this / next month or year; a month name without a year is the most recent
  such month at or before today ("in May"; "last May" is the one before this month, "next May" the first after);
  summer is June–August, autumn September–November, winter December–February, spring March–May (northern);
  去年, 今年, 前年, 上个月, 五月, 去年五月, 去年夏天…
- counts: N days / weeks / months / years ago (the day, calendar week, month or year that far back; "a few" is 2–4
  of them, "a couple of" 2–3, "several" 3–7), N … from now; 三天前, 两个月前, 半年前, 几天前…
- absolute dates: 1 May, 2022; May 3, 2023; the 1st of May; 14September, 2022; November 2022; 2023-05-03; a year
  after a preposition ("in 2022"); summer 2022; 2023年5月3日, 2023年5月, 5月3日, 2022年… A day and month without a
  year is the most recent such day at or before today.
- parts: early / mid / late, the beginning / middle / end of … — the first, middle or last third of what follows;
  月初, 月底, 上旬, 中旬, 下旬, 年初, 年底, 上半年, 下半年.
- anchors: the day / week / weekend / month / year / Friday before (or after) <any of the above>, N weeks before
  <…>, the week of <…>, the second (first, third, fourth, last) week of <a month>; "on the 15th" (no month).
Ambiguous words are read as dates only with a signal: "May", "March", "April", "June", "August" and the
abbreviations need a day, a year or a preposition ("in May"; "this May" only capitalised), so "May I…", "March on"
and "this may help" resolve to nothing; a bare year needs a preposition and to end its phrase ("in 2022 we moved",
not "2022 people" or "in 2022 steps").
"""

from service.search.temporal.ranking import (
    DEFAULT_RULE,
    QueryTime,
    RowTimes,
    TimeRule,
    ns,
    query_time,
    row_times,
    said_of,
    time_weights,
)
from service.search.temporal.resolver import TimeRef, asks_about_time, resolve

__all__ = ["DEFAULT_RULE", "QueryTime", "RowTimes", "TimeRef", "TimeRule", "asks_about_time", "ns", "query_time",
           "resolve", "row_times", "said_of", "time_weights"]
