"""Time expressions in English and Chinese resolved against a reference time (service/search/temporal): what each
means, what is not a time at all, whether a query asks about time, and that no text makes the resolver raise, return
an ill-formed interval or take more than linear time."""

from __future__ import annotations

import time
from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from service.search.temporal import asks_about_time, resolve

NOW = datetime(2023, 5, 10, 15, 30, tzinfo=UTC)  # a Wednesday; this week is Monday 8 May – Sunday 14 May


def _days(text: str, now: datetime = NOW) -> list[tuple[str, date, date]]:
    return [(r.text, r.start.date(), r.end.date()) for r in resolve(text, now)]


def _one(text: str) -> tuple[date, date]:
    found = _days(text)
    assert len(found) == 1, found
    return found[0][1], found[0][2]


D = date
ENGLISH = [
    # relative days
    ("yesterday", D(2023, 5, 9), D(2023, 5, 10)),
    ("today", D(2023, 5, 10), D(2023, 5, 11)),
    ("tonight", D(2023, 5, 10), D(2023, 5, 11)),
    ("tomorrow", D(2023, 5, 11), D(2023, 5, 12)),
    ("the day before yesterday", D(2023, 5, 8), D(2023, 5, 9)),
    ("last night", D(2023, 5, 9), D(2023, 5, 10)),
    ("this morning", D(2023, 5, 10), D(2023, 5, 11)),
    # weeks, weekends, weekdays (calendar weeks from Monday)
    ("last week", D(2023, 5, 1), D(2023, 5, 8)),
    ("this week", D(2023, 5, 8), D(2023, 5, 15)),
    ("next week", D(2023, 5, 15), D(2023, 5, 22)),
    ("last weekend", D(2023, 5, 6), D(2023, 5, 8)),
    ("this past weekend", D(2023, 5, 6), D(2023, 5, 8)),
    ("this weekend", D(2023, 5, 13), D(2023, 5, 15)),
    ("last Friday", D(2023, 5, 5), D(2023, 5, 6)),
    ("Last Fri", D(2023, 5, 5), D(2023, 5, 6)),
    ("next Friday", D(2023, 5, 12), D(2023, 5, 13)),
    ("I saw her on Monday", D(2023, 5, 8), D(2023, 5, 9)),
    ("the past week", D(2023, 5, 4), D(2023, 5, 11)),
    ("the last 3 days", D(2023, 5, 8), D(2023, 5, 11)),
    # months, years, seasons
    ("last month", D(2023, 4, 1), D(2023, 5, 1)),
    ("this month", D(2023, 5, 1), D(2023, 6, 1)),
    ("next month", D(2023, 6, 1), D(2023, 7, 1)),
    ("last year", D(2022, 1, 1), D(2023, 1, 1)),
    ("this year", D(2023, 1, 1), D(2024, 1, 1)),
    ("in May", D(2023, 5, 1), D(2023, 6, 1)),            # the most recent May at or before now: this one
    ("in June", D(2022, 6, 1), D(2022, 7, 1)),           # … June has not come yet this year
    ("in december", D(2022, 12, 1), D(2023, 1, 1)),
    ("last May", D(2022, 5, 1), D(2022, 6, 1)),          # the May before this month
    ("next May", D(2024, 5, 1), D(2024, 6, 1)),
    ("September was hot", D(2022, 9, 1), D(2022, 10, 1)),
    ("last summer", D(2022, 6, 1), D(2022, 9, 1)),
    ("this summer", D(2023, 6, 1), D(2023, 9, 1)),
    ("during the winter", D(2022, 12, 1), D(2023, 3, 1)),
    # counts
    ("three days ago", D(2023, 5, 7), D(2023, 5, 8)),
    ("3 days ago", D(2023, 5, 7), D(2023, 5, 8)),
    ("two weeks ago", D(2023, 4, 24), D(2023, 5, 1)),
    ("a month ago", D(2023, 4, 1), D(2023, 5, 1)),
    ("ten years ago", D(2013, 1, 1), D(2014, 1, 1)),
    ("twenty-one days ago", D(2023, 4, 19), D(2023, 4, 20)),
    ("a few days ago", D(2023, 5, 6), D(2023, 5, 9)),
    ("a couple of weeks ago", D(2023, 4, 17), D(2023, 5, 1)),
    ("two days from now", D(2023, 5, 12), D(2023, 5, 13)),
    ("several weeks ago", D(2023, 3, 20), D(2023, 4, 24)),  # 3 to 7 calendar weeks back
    # absolute dates
    ("on 1 May, 2022", D(2022, 5, 1), D(2022, 5, 2)),
    ("May 3, 2023", D(2023, 5, 3), D(2023, 5, 4)),
    ("May 3rd", D(2023, 5, 3), D(2023, 5, 4)),
    ("on 20 May", D(2022, 5, 20), D(2022, 5, 21)),       # the most recent 20 May at or before now
    ("14September, 2022", D(2022, 9, 14), D(2022, 9, 15)),
    ("8th December, 2023", D(2023, 12, 8), D(2023, 12, 9)),
    ("the 1st of May", D(2023, 5, 1), D(2023, 5, 2)),
    ("November 2022", D(2022, 11, 1), D(2022, 12, 1)),
    ("May of 2021", D(2021, 5, 1), D(2021, 6, 1)),
    ("Aug 15th", D(2022, 8, 15), D(2022, 8, 16)),
    ("2023-05-03", D(2023, 5, 3), D(2023, 5, 4)),
    ("back in 2019", D(2019, 1, 1), D(2020, 1, 1)),
    ("summer 2022", D(2022, 6, 1), D(2022, 9, 1)),
    ("I met them on the 15th after my trip", D(2023, 4, 15), D(2023, 4, 16)),
    # parts
    ("the beginning of November 2022", D(2022, 11, 1), D(2022, 11, 11)),
    ("mid-June 2022", D(2022, 6, 11), D(2022, 6, 21)),
    ("the end of May", D(2023, 5, 21), D(2023, 6, 1)),
    ("late last year", D(2022, 9, 1), D(2023, 1, 1)),
    ("early 2021", D(2021, 1, 1), D(2021, 5, 2)),
    # anchored
    ("the week before 16 November 2023", D(2023, 11, 9), D(2023, 11, 16)),
    ("the weekend before 16 November 2023", D(2023, 11, 11), D(2023, 11, 13)),
    ("the weekend before 19 November 2023", D(2023, 11, 11), D(2023, 11, 13)),  # a Sunday: not its own weekend
    ("the weekend after 16 November 2023", D(2023, 11, 18), D(2023, 11, 20)),
    ("two weekends before 17 July 2023", D(2023, 7, 8), D(2023, 7, 10)),
    ("the Friday before 15 July 2023", D(2023, 7, 14), D(2023, 7, 15)),
    ("the Sunday before October 25, 2022", D(2022, 10, 23), D(2022, 10, 24)),
    ("the day after 1 May 2022", D(2022, 5, 2), D(2022, 5, 3)),
    ("the week after 1 May 2022", D(2022, 5, 2), D(2022, 5, 9)),
    ("two weeks before August 11, 2023", D(2023, 7, 28), D(2023, 8, 4)),
    ("the week of 3 May 2023", D(2023, 5, 1), D(2023, 5, 8)),
    ("the month before last year", D(2021, 12, 1), D(2022, 1, 1)),
    ("the second week of November 2022", D(2022, 11, 8), D(2022, 11, 15)),
    ("the last week of May 2023", D(2023, 5, 25), D(2023, 6, 1)),
]

CHINESE = [
    ("昨天", D(2023, 5, 9), D(2023, 5, 10)),
    ("前天我去了公园", D(2023, 5, 8), D(2023, 5, 9)),
    ("大前天", D(2023, 5, 7), D(2023, 5, 8)),
    ("今天", D(2023, 5, 10), D(2023, 5, 11)),
    ("明天", D(2023, 5, 11), D(2023, 5, 12)),
    ("昨晚", D(2023, 5, 9), D(2023, 5, 10)),
    ("上周", D(2023, 5, 1), D(2023, 5, 8)),
    ("上个星期", D(2023, 5, 1), D(2023, 5, 8)),
    ("这周", D(2023, 5, 8), D(2023, 5, 15)),
    ("下周", D(2023, 5, 15), D(2023, 5, 22)),
    ("上上周", D(2023, 4, 24), D(2023, 5, 1)),
    ("上周五", D(2023, 5, 5), D(2023, 5, 6)),
    ("上周末", D(2023, 5, 6), D(2023, 5, 8)),
    ("周五", D(2023, 5, 5), D(2023, 5, 6)),
    ("星期天", D(2023, 5, 7), D(2023, 5, 8)),
    ("上个月", D(2023, 4, 1), D(2023, 5, 1)),
    ("这个月", D(2023, 5, 1), D(2023, 6, 1)),
    ("下个月", D(2023, 6, 1), D(2023, 7, 1)),
    ("去年", D(2022, 1, 1), D(2023, 1, 1)),
    ("今年", D(2023, 1, 1), D(2024, 1, 1)),
    ("前年", D(2021, 1, 1), D(2022, 1, 1)),
    ("明年", D(2024, 1, 1), D(2025, 1, 1)),
    ("三天前", D(2023, 5, 7), D(2023, 5, 8)),
    ("两周前", D(2023, 4, 24), D(2023, 5, 1)),
    ("两个月前", D(2023, 3, 1), D(2023, 4, 1)),
    ("一年前", D(2022, 1, 1), D(2023, 1, 1)),
    ("半年前", D(2022, 11, 1), D(2022, 12, 1)),
    ("几天前", D(2023, 5, 3), D(2023, 5, 9)),
    ("前几天", D(2023, 5, 3), D(2023, 5, 10)),
    ("五月", D(2023, 5, 1), D(2023, 6, 1)),
    ("六月", D(2022, 6, 1), D(2022, 7, 1)),
    ("2023年5月", D(2023, 5, 1), D(2023, 6, 1)),
    ("２０２２年", D(2022, 1, 1), D(2023, 1, 1)),
    ("5月3日", D(2023, 5, 3), D(2023, 5, 4)),
    ("五月三日", D(2023, 5, 3), D(2023, 5, 4)),
    ("2022年5月3号", D(2022, 5, 3), D(2022, 5, 4)),
    ("二〇二二年十二月", D(2022, 12, 1), D(2023, 1, 1)),
    ("去年五月", D(2022, 5, 1), D(2022, 6, 1)),
    ("去年夏天", D(2022, 6, 1), D(2022, 9, 1)),
    ("2022年底", D(2022, 9, 1), D(2023, 1, 1)),
    ("今年上半年", D(2023, 1, 1), D(2023, 7, 1)),
    ("十一月下旬", D(2022, 11, 21), D(2022, 12, 1)),
    ("5月初", D(2023, 5, 1), D(2023, 5, 11)),
]


@pytest.mark.parametrize(("text", "lo", "hi"), ENGLISH, ids=[c[0] for c in ENGLISH])
def test_english(text: str, lo: date, hi: date) -> None:
    assert _one(text) == (lo, hi)


@pytest.mark.parametrize(("text", "lo", "hi"), CHINESE, ids=[c[0] for c in CHINESE])
def test_chinese(text: str, lo: date, hi: date) -> None:
    assert _one(text) == (lo, hi)


NOT_TIMES = [
    "May I ask you something?", "You may go now.", "This may help.", "It may be late.", "March on, soldiers!",
    "They will march to the square.", "I will sleep early", "June's house is big", "I met April at the park",
    "we live on the 3rd floor", "2000 people came", "I ran 5 miles in 2022 steps", "She is the first of many",
    "Have a great day!", "every day I walk", "one day I will travel", "We had a long week.", "This is my last day",
    "the august committee met", "I'll sleep for a few days", "since we last talked", "a few years of practice",
    "之前天气很好", "这周围很安静", "四周一片寂静", "一个月", "周期很长", "以后天天锻炼", "月亮很圆", "三天", "半年",
    "", "   ", "12345678901234567890", "Mark the date",
]


@pytest.mark.parametrize("text", NOT_TIMES)
def test_text_without_a_time_resolves_to_nothing(text: str) -> None:
    assert resolve(text, NOW) == []


def test_a_sentence_yields_each_expression_in_order_with_its_offsets() -> None:
    text = "I went there yesterday and again last week; 去年五月 too."
    refs = resolve(text, NOW)
    assert [r.text for r in refs] == ["yesterday", "last week", "去年五月"]
    assert all(text[r.at[0]:r.at[1]] == r.text for r in refs)


def test_intervals_are_in_the_reference_times_timezone() -> None:
    tokyo = timezone(timedelta(hours=9))
    now = datetime(2023, 5, 10, 1, 0, tzinfo=tokyo)  # 9 May, 16:00 UTC: in Tokyo it is already the 10th
    (ref,) = resolve("yesterday", now)
    assert ref.start == datetime(2023, 5, 9, tzinfo=tokyo) and ref.end == datetime(2023, 5, 10, tzinfo=tokyo)


def test_a_naive_reference_time_is_refused() -> None:
    with pytest.raises(ValueError, match="timezone"):
        resolve("yesterday", datetime(2023, 5, 10))


ASKS = ["When did Caroline go to the support group?", "when was that?", "So when is the party?",
        "And when did they move?", "How long ago was her birthday?", "How long has she lived there?",
        "Which year did he move?", "In what month did they marry?", "What date is the wedding?",
        "How many years has she worked there?", "Since when have you known?", "他什么时候来的？", "你们是哪一年认识的",
        "多久以前的事", "几月份去的"]
NOT_ASKS = ["What did she say when she left?", "Where does she live?", "What did Caroline do after the party?",
            "How many dogs does she have?", "How often does she run?", "I remember when we met", "我喜欢吃苹果",
            "What is her favourite food?"]


@pytest.mark.parametrize("text", ASKS)
def test_a_question_about_time_is_recognised(text: str) -> None:
    assert asks_about_time(text)


@pytest.mark.parametrize("text", NOT_ASKS)
def test_other_questions_do_not_ask_about_time(text: str) -> None:
    assert not asks_about_time(text)


# ---- any text ---------------------------------------------------------------------------------------------------

_VOCAB = ["the", "a", "last", "this", "next", "past", "week", "weeks", "weekend", "day", "days", "month", "year",
          "ago", "before", "after", "of", "in", "on", "since", "early", "mid", "-", "late", "end", "beginning", "May",
          "may", "march", "June", "Friday", "Fri", "summer", "yesterday", "today", "few", "couple", "two", "twenty",
          "1", "15th", "31", "2022", "9999", "0001", "2023-05-03", "/", ",", "'", "s", "th", "上", "周", "个", "月",
          "年", "去", "今", "前", "后", "天", "日", "号", "五", "十", "两", "几", "半", "之", "星期", "初", "底",
          "夏天", "２０２２", "年底", "上半年", "〇"]
_texts = st.one_of(
    st.text(max_size=200),
    st.lists(st.sampled_from(_VOCAB), max_size=40).map(" ".join),
    st.lists(st.sampled_from(_VOCAB), max_size=40).map("".join),
)
_offsets = st.integers(-14 * 60, 14 * 60).map(lambda m: timezone(timedelta(minutes=m)))
_nows = st.builds(lambda d, tz: d.replace(tzinfo=tz),
                  st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)), _offsets)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_texts, _nows)
def test_any_text_resolves_without_raising_to_well_formed_intervals(text: str, now: datetime) -> None:
    refs = resolve(text, now)
    end = 0
    for r in refs:
        assert r.start < r.end and r.start.tzinfo is not None and r.end.tzinfo is not None
        assert end <= r.at[0] < r.at[1] <= len(text) and text[r.at[0]:r.at[1]] == r.text  # in order, apart
        end = r.at[1]
    asks_about_time(text)


def _examples(units: list[str]):  # type: ignore[no-untyped-def]
    def add(test):  # type: ignore[no-untyped-def]
        for unit in units:
            test = example(unit)(test)
        return test
    return add


def _cpu_seconds(text: str) -> float:
    """The CPU time this process spends resolving the text (process time: a busy machine's waits do not count)."""
    t0 = time.process_time()
    resolve(text, NOW)
    asks_about_time(text)
    return time.process_time() - t0


# Long runs are what make a backtracking pattern quadratic: digits, Chinese numerals, letters, spaces, and the
# openings of phrases repeated without their ends.
_RUNS = ["0", "9", "十", "二", "〇", "a", "x", " ", "-", "年", "周", "上", "前", "the ", "last ", "a few ", "May ",
         "1st ", "2022-", "5月", "上上", "the week before "]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_VOCAB + ["x", " ", "  ", "0", "9"]), min_size=1, max_size=12).map("".join))
@_examples(_RUNS)
def test_time_grows_linearly_with_the_text(unit: str) -> None:
    """A complexity check, not a speed target: a text eight times longer (the same random piece repeated: what
    makes a backtracking pattern blow up) takes about eight times the CPU, far from the 64× of a quadratic scan.
    Short and long runs alternate, the best of three each."""
    short = (unit * (1000 // len(unit) + 1))[:1000]
    runs: dict[int, list[float]] = {1: [], 8: []}
    for _ in range(3):
        for k in (1, 8):
            runs[k].append(_cpu_seconds(short * k))
    ratio = min(runs[8]) / max(min(runs[1]), 1e-4)
    assert ratio < 24, ratio
