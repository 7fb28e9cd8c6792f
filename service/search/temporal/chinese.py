"""Chinese time expressions: one regex whose quantifiers are all bounded (so no match attempt reads more than a few
dozen characters), and the interval each match means."""

from __future__ import annotations

import re
from datetime import date, timedelta

from service.search.temporal import spans
from service.search.temporal.spans import Span

_CN_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
              "八": 8, "九": 9}
_FULLWIDTH = str.maketrans("０１２３４５６７８９", "0123456789")
_N = r"[0-9]{1,3}|[一二两三四五六七八九十]{1,3}"
_Y4 = r"[0-9]{4}|[〇零一二三四五六七八九]{4}"
_M = r"[0-9]{1,2}|十[一二]?|[一二三四五六七八九]"
_D = r"[0-9]{1,2}|[一二三]?十[一二三四五六七八九]?|[一二三四五六七八九]"
_REL_YEAR = r"大前年|前年|去年|今年|明年|后年"
_WEEK_PREFIX = (r"上上个?(?:星期|礼拜)|上上周|下下周|上个?(?:星期|礼拜)|上周|这个?(?:星期|礼拜)|这周|本周"
                r"|下个?(?:星期|礼拜)|下周")
_NOT_WEEK = r"(?!围|边|到|全|期|年|岁)"  # 周围 (around), 周边, 周到, 周全, 周期, 周年, 周岁
_ZH = re.compile(
    # 三天前, 两个月前, 半年前, 几天前, 三周后
    rf"(?P<ago_n>{_N}|几|半)(?P<ago_u>天|日|周|个?星期|个?礼拜|个?月|年)(?:之|以)?(?P<ago_dir>前|后)"
    r"|(?P<few_days>前几天|这几天)"
    # 2023年5月3日, 去年五月, 5月3号, 五月初, 十一月下旬
    rf"|(?:(?P<y>{_Y4})年|(?P<ry>{_REL_YEAR}))?(?<![0-9零〇一二两三四五六七八九十百千万几个每第这那上下本])"
    rf"(?P<m>{_M})月份?(?:(?P<d>{_D})[日号])?(?P<mpart>初|底|末|上旬|中旬|下旬)?"
    # 2022年, 去年, 2022年底, 去年夏天, 今年上半年
    rf"|(?:(?<![0-9])(?P<y2>{_Y4})年|(?P<ry2>{_REL_YEAR}))"
    r"(?:(?P<ypart>年初|年底|年末|年中|初|底|末|上半年|下半年)|(?P<season>春天|夏天|秋天|冬天|春季|夏季|秋季|冬季))?"
    # 上周, 上周五, 这个星期天, 上周末
    rf"|(?P<wk>{_WEEK_PREFIX}){_NOT_WEEK}(?P<wd>[一二三四五六日天末])?"
    # 周五, 星期天, 礼拜六 (not 四周一片: 周 after a numeral is "weeks")
    r"|(?<![上下这本每四一二三五六七八九十几两数])(?P<bwd>星期|礼拜|周)(?P<bwd_d>[一二三四五六日天])"
    # 上个月, 这个月, 下个月初
    r"|(?P<rm>上上个?月|上个?月|这个?月|本月|下下个?月|下个?月)(?P<rmpart>初|底|末|上旬|中旬|下旬)?"
    # 昨天, 前天, 今天, 明天, 昨晚, 大前天, 后天 (not 之前天气, 以后天天)
    r"|(?P<day>大前天|(?<![之以提从眼面目当跟向往])前天|昨天|昨日|昨晚|昨夜|今天|今日|今晚|今早|今儿|明天|明日|明晚"
    r"|大后天|(?<![之以然最此随落午背身先])后天)"
)
_ZH_WD = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_ZH_DAYS = {"大前天": -3, "前天": -2, "昨天": -1, "昨日": -1, "昨晚": -1, "昨夜": -1, "今天": 0, "今日": 0, "今晚": 0,
            "今早": 0, "今儿": 0, "明天": 1, "明日": 1, "明晚": 1, "后天": 2, "大后天": 3}
_ZH_YEARS = {"大前年": 3, "前年": 2, "去年": 1, "今年": 0, "明年": -1, "后年": -2}
_ZH_PART = {"初": "early", "上旬": "early", "中旬": "mid", "底": "late", "末": "late", "下旬": "late",
            "年初": "early", "年中": "mid", "年底": "late", "年末": "late"}
_ZH_SEASON = {"春": 3, "夏": 6, "秋": 9, "冬": 12}


def _cn_int(s: str) -> int | None:
    """A numeral of at most three characters (digits, or 一…九 with 十): 3, 十, 十二, 二十, 二十三, 两."""
    if s.isdigit():
        return int(s)
    if "十" not in s:
        return _CN_DIGITS.get(s) if len(s) == 1 else None
    tens, _, units = s.partition("十")
    if "十" in units:
        return None
    t = 1 if not tens else _CN_DIGITS.get(tens) if len(tens) == 1 else None
    u = 0 if not units else _CN_DIGITS.get(units) if len(units) == 1 else None
    return None if t is None or u is None else 10 * t + u


def _cn_year(s: str) -> int:
    return int(s) if s.isdigit() else int("".join(str(_CN_DIGITS[c]) for c in s))


def _zh_match(g: dict[str, str | None], today: date) -> Span | None:  # noqa: C901 - one branch per pattern
    if g["ago_n"] is not None:
        unit = {"天": "day", "日": "day", "周": "week", "星期": "week", "礼拜": "week", "月": "month",
                "年": "year"}[str(g["ago_u"]).lstrip("个")]
        n_text = str(g["ago_n"])
        sign = 1 if g["ago_dir"] == "前" else -1
        if n_text == "几":  # a few: 2 to 7 of them
            return spans.units_back(unit, today, 2, 7) if sign > 0 else spans.units_back(unit, today, -7, -2)
        if n_text == "半":
            if unit != "year":
                return None
            return spans.unit_back("month", today, 6 * sign)
        n = _cn_int(n_text)
        return spans.unit_back(unit, today, sign * n) if n is not None and 0 < n <= 1000 else None
    if g["few_days"] == "前几天":  # the other day
        return today - timedelta(days=7), today
    if g["few_days"] is not None:  # 这几天: these last few days
        return today - timedelta(days=3), today + spans.DAY
    if g["m"] is not None:
        m = _cn_int(str(g["m"]))
        if m is None or not 1 <= m <= 12:
            return None
        year = _cn_year(str(g["y"])) if g["y"] is not None else (
            today.year - _ZH_YEARS[str(g["ry"])] if g["ry"] is not None else None)
        span: Span | None
        if g["d"] is not None:
            d = _cn_int(str(g["d"]))
            if d is None:
                return None
            if year is None:
                span = spans.recent_day(m, d, today)
            else:
                day = spans.safe_date(year, m, d)
                span = spans.day_span(day) if day is not None else None
        else:
            span = spans.month_span(year, m) if year is not None else spans.recent_month(m, today)
        if span is not None and g["mpart"] is not None:
            span = spans.part(span, _ZH_PART[str(g["mpart"])])
        return span
    if g["y2"] is not None or g["ry2"] is not None:
        year = _cn_year(str(g["y2"])) if g["y2"] is not None else today.year - _ZH_YEARS[str(g["ry2"])]
        span = spans.year_span(year)
        if span is None:
            return None
        if g["season"] is not None:
            return spans.season(_ZH_SEASON[str(g["season"])[0]], year)
        part = g["ypart"]
        if part == "上半年":
            return spans.month_span(year, 1)[0], spans.month_span(year, 7)[0]  # type: ignore[index]
        if part == "下半年":
            return spans.month_span(year, 7)[0], span[1]  # type: ignore[index]
        return spans.part(span, _ZH_PART[str(part)]) if part is not None else span
    if g["wk"] is not None:
        wk = str(g["wk"])
        back = 2 if wk.startswith("上上") else 1 if wk.startswith("上") else -2 if wk.startswith("下下") else (
            -1 if wk.startswith("下") else 0)
        if g["wd"] == "末":
            return spans.unit_back("weekend", today, back)
        if g["wd"] is not None:
            return spans.day_span(spans.week(today) - timedelta(weeks=back) + timedelta(days=_ZH_WD[str(g["wd"])]))
        return spans.unit_back("week", today, back)
    if g["bwd"] is not None:
        return spans.day_span(spans.weekday_before(today, _ZH_WD[str(g["bwd_d"])]))
    if g["rm"] is not None:
        rm = str(g["rm"])
        back = 2 if rm.startswith("上上") else 1 if rm.startswith("上") else -2 if rm.startswith("下下") else (
            -1 if rm.startswith("下") else 0)
        span = spans.unit_back("month", today, back)
        return spans.part(span, _ZH_PART[str(g["rmpart"])]) if span is not None and g["rmpart"] else span
    if g["day"] is not None:
        return spans.day_span(today + timedelta(days=_ZH_DAYS[str(g["day"])]))
    return None


HAN = re.compile(r"[\u3007\u4e00-\u9fff]")  # a text without these holds no Chinese expression


def scan(text: str, today: date) -> list[tuple[int, int, Span]]:
    """Every Chinese expression in the text, as (first character, end character, span); none overlap."""
    if HAN.search(text) is None:
        return []
    out = []
    for m in _ZH.finditer(text.translate(_FULLWIDTH)):
        try:
            span = _zh_match(m.groupdict(), today)
        except (OverflowError, ValueError, KeyError):
            span = None
        if span is not None and span[0] < span[1]:
            out.append((m.start(), m.end(), span))
    return out


# 什么时候, 何时, 哪天, 哪一年, 几月, 多久 …
_ASKS = re.compile(r"什么时候|啥时候|什么时间|何时|哪天|哪一天|哪日|哪年|哪一年|哪个月|哪一个月|几月|几号|几日|多久"
                   r"|多长时间|多少年|多少天|多少个月|几年|几个月|几天|几周|星期几|礼拜几|周几|什么日子|几点|哪个星期"
                   r"|哪一周|哪周|何年|何日")


def asks(text: str) -> bool:
    """Whether a Chinese query asks about time: one of its question words of time."""
    return _ASKS.search(text) is not None
