"""Whole-word negation markers and subject derivation (digest.negation)."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from digest.negation import (
    CHINESE_MARKERS,
    ENGLISH_PSEUDO_NEGATIONS,
    PSEUDO_NEGATIONS,
    STANDALONE_NEGATORS,
    _tokens,
    derive_subject,
    is_negating,
    negation_markers,
)

MUST_NEGATE = [
    "我不要咖啡了",
    "禁止在周末开会",
    "取消明天的会议",
    "我不再喝咖啡",
    "别再提醒我",
    "I don't like tea anymore",
    "Never call me before 9",
    "I no longer use vim",
    "use pnpm instead of npm",
    "Do not deploy on Fridays",
]

MUST_NOT_NEGATE = [
    "这家餐厅不错",
    "两个方案差不多",
    "对不起我迟到了",
    "不仅便宜而且好吃",
    "非常喜欢",
    "未来计划",
    "nothing changed",
    "a notable result",
    "tie a knot",
    "nevertheless it works",
    "I noticed the stopwatch",
]


@pytest.mark.parametrize("text", MUST_NEGATE)
def test_must_negate(text: str) -> None:
    assert is_negating(text)


@pytest.mark.parametrize("text", MUST_NOT_NEGATE)
def test_must_not_negate(text: str) -> None:
    assert negation_markers(text) == []
    assert not is_negating(text)


@pytest.mark.parametrize(
    ("text", "markers"),
    [
        ("我不要咖啡了", ["不要"]),
        ("禁止在周末开会", ["禁止"]),
        ("取消明天的会议", ["取消"]),
        ("我不再喝咖啡", ["不再"]),
        ("别再提醒我", ["别"]),
        ("会议改为周二", ["改为"]),
        ("我不喜欢咖啡", ["不喜欢"]),
        ("I don't like tea anymore", ["don't"]),
        ("I don’t like tea anymore", ["don't"]),  # typographic apostrophe
        ("Never call me before 9", ["never"]),
        ("I no longer use vim", ["no longer"]),
        ("use pnpm instead of npm", ["instead of"]),
        ("Do not deploy on Fridays", ["do not"]),  # longest match, not + "not"
        ("Do  NOT  deploy", ["do not"]),
        ("Stop it, I cannot and won't", ["stop", "cannot", "won't"]),
        ("取消 the meeting, don't 再提醒", ["取消", "don't"]),  # order of appearance
        ("我never用vim", ["never"]),  # English glued to CJK still counts
    ],
)
def test_exact_markers(text: str, markers: list[str]) -> None:
    assert negation_markers(text) == markers


@pytest.mark.parametrize(
    ("text", "markers"),
    [
        ("我不喝咖啡", ["不"]),  # standalone 不 + Han word
        ("我没有去", ["没有"]),
        ("他没吃饭", ["没"]),
        ("我不 喝咖啡", []),  # not *immediately* followed by a word
        ("我不。", []),
        ("你要不要咖啡", []),  # A-not-A question
        ("能不能明天开会", []),
        ("喝不喝咖啡", []),
        ("我不得不去", []),  # double negation = must
        ("毫不犹豫地同意", []),
        ("没问题", []),
    ],
)
def test_standalone_negators_and_questions(text: str, markers: list[str]) -> None:
    assert negation_markers(text) == markers


@pytest.mark.parametrize(
    "text",
    ["cannot", "can't", "can’t", "CANCELLED", "canceled", "quit", "avoid", "no more", "rather than"],
)
def test_english_marker_variants(text: str) -> None:
    assert is_negating(f"please {text} that")


@pytest.mark.parametrize(
    "text",
    [
        "notice",
        "stopwatch",
        "nevertheless",
        "knot",
        "nothing",
        "notable",
        "cancellation",
        "avoidance",
        "quite",
        "nonstop",
        "not only this",
        "not bad at all",
        "no more than 3 cups",
        "I can't wait",
    ],
)
def test_english_fragments_and_pseudo(text: str) -> None:
    assert negation_markers(text) == []


@pytest.mark.parametrize("word", sorted(PSEUDO_NEGATIONS))
def test_pseudo_negations_segment_whole_and_do_not_negate(word: str) -> None:
    assert _tokens(word) == (word,)
    assert not is_negating(word)


@pytest.mark.parametrize("word", sorted(CHINESE_MARKERS))
def test_every_chinese_marker_detected(word: str) -> None:
    assert negation_markers(f"我{word}。") == [word]


def test_empty_and_whitespace() -> None:
    assert negation_markers("") == []
    assert negation_markers("   \n") == []


def test_concurrent_calls_agree() -> None:
    results: list[list[str]] = []
    lock = threading.Lock()

    def work() -> None:
        r = negation_markers("我不再喝咖啡")
        with lock:
            results.append(r)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [["不再"]] * 8


_CJKISH_ALPHABET = "我你他不没有要别再喝咖啡错差多对起仅过非常未来了得犹豫取消改为的是好吃 ,。abnotdc'"
_cjkish = st.text(
    alphabet=st.sampled_from(list(_CJKISH_ALPHABET)),
    max_size=30,
)
_any_text = st.one_of(st.text(max_size=60), _cjkish)


@given(_any_text)
@settings(max_examples=300, deadline=None)
def test_never_raises(text: str) -> None:
    markers = negation_markers(text)
    assert isinstance(markers, list)
    assert is_negating(text) == bool(markers)
    subject = derive_subject(text)
    assert subject is None or (subject and subject == derive_subject(text))


@given(
    _any_text,
    st.sampled_from(sorted(PSEUDO_NEGATIONS | ENGLISH_PSEUDO_NEGATIONS)),
    st.sampled_from(["prefix", "suffix", "both"]),
)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
def test_adding_pseudo_negation_never_makes_text_negating(text: str, pseudo: str, where: str) -> None:
    assume(not is_negating(text))
    # "。" separates the insert so it cannot fuse with neighbouring words
    # (不错 + 过 -> 不 错过 would be a real negation).
    if where == "prefix":
        combined = f"{pseudo}。{text}"
    elif where == "suffix":
        combined = f"{text}。{pseudo}"
    else:
        combined = f"{pseudo}。{text}。{pseudo}"
    assert not is_negating(combined)


@pytest.mark.parametrize(
    ("plain", "negated"),
    [
        ("I like coffee in the morning", "I don't like coffee in the morning anymore"),
        ("我喜欢喝咖啡", "我不再喜欢喝咖啡"),
        ("我要咖啡", "我不要咖啡了"),
        ("在周末开会", "禁止在周末开会"),
        ("提醒我", "别再提醒我"),
        ("I like tea", "I don't like tea anymore"),
        ("Call me before 9", "Never call me before 9"),
        ("I use vim", "I no longer use vim"),
        ("Deploy on Fridays", "Do not deploy on Fridays"),
        ("我喜欢咖啡", "我不喜欢咖啡"),
    ],
)
def test_derive_subject_same_for_plain_and_negated(plain: str, negated: str) -> None:
    subject = derive_subject(plain)
    assert subject is not None
    assert subject == derive_subject(negated)


def test_derive_subject_values() -> None:
    assert derive_subject("I like coffee in the morning") == "coffee+like+morning"
    assert derive_subject("我喜欢喝咖啡") == "喜欢+喝咖啡"
    # At most four, sorted.
    assert derive_subject("zeta alpha gamma beta delta epsilon") == "alpha+beta+delta+epsilon"


@pytest.mark.parametrize("text", ["", "   ", "the and for", "I do not", "我们", "我不要了", "!!!", "a b c"])
def test_derive_subject_none(text: str) -> None:
    assert derive_subject(text) is None


def test_import_is_lazy_and_first_use_is_silent() -> None:
    # Fresh interpreter: importing must not load the segmenter; first use must not print to stderr.
    code = (
        "import sys, digest.negation as n\n"
        "assert 'rjieba' not in sys.modules\n"
        "assert n.negation_markers('I never drink tea') == ['never']\n"
        "assert 'rjieba' not in sys.modules  # no Han text, no segmenter\n"
        "assert n.negation_markers('我不再喝咖啡') == ['不再']\n"
    )
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""


def test_marker_sets_are_disjoint() -> None:
    # _chinese_markers and _zh_content test marker membership before pseudo-negation membership: a word in two
    # of these sets would be classified by whichever check comes first.
    assert CHINESE_MARKERS.isdisjoint(PSEUDO_NEGATIONS)
    assert STANDALONE_NEGATORS.isdisjoint(PSEUDO_NEGATIONS)
    assert STANDALONE_NEGATORS.isdisjoint(CHINESE_MARKERS)
