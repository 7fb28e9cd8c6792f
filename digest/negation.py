"""Explicit negation / cancellation markers, matched as whole words only.

A newer memory about the same subject that explicitly negates or cancels an
older one supersedes it. The previous implementation matched the bare
character 不 and so took 不错 (good), 差不多 (about the same) and 对不起
(sorry) for negations. Here markers only count as whole words:

* Chinese: the text is segmented with jieba (see below; ``HMM=False`` so the result
  depends only on the dictionary, never on the statistical model). A token
  equal to one of ``CHINESE_MARKERS`` counts. All markers and all
  ``PSEUDO_NEGATIONS`` are added to jieba's dictionary so they stay whole.

  Standalone negators (decision): a token that is exactly 不, 没 or 没有
  counts when the *immediately following* token is a Han word (as in
  我/不/喝咖啡, 我/没有/去, 我/不/喜欢/咖啡). No part-of-speech check is
  made: jieba's tags are unreliable for this (喝咖啡 is tagged ``nr``,
  同意 ``d``), so 没有/车 ("have no car") counts too, which is fine for
  superseding "我有车". A whitespace or punctuation token in between breaks
  the rule, and so does a following token that is itself a pseudo-negation.

  A-not-A questions (decision): a candidate starting with 不/没 whose
  neighbours on both sides are the same character (要不要, 能不能, 喝不喝,
  对不对) is a yes/no question, not a negation, and is dropped.

  Pseudo-negations: any candidate whose span lies inside an occurrence of a
  ``PSEUDO_NEGATIONS`` word in the raw text is dropped, whatever jieba made
  of the context (e.g. if it ever split 不得不 as 不得/不).

* English: case-insensitive regular expression over the raw text, with
  ASCII word boundaries ``(?<![A-Za-z0-9_])`` / ``(?![A-Za-z0-9_])``. They
  behave like ``\\b`` for English but also match a marker glued to CJK text
  (我never用vim), where Unicode ``\\b`` would not. Both apostrophes ' and ’
  are accepted; markers are reported lower-cased with ASCII ' and a single
  space ("Do  NOT" -> "do not"). At each position the longest alternative
  wins, so "do not" is one marker, not "do not" + "not". Decisions:
  "cannot" and "can't" ARE negations (added to the brief's list);
  "nothing", "notable", "knot", "notice", "nevertheless", "stopwatch" are
  not (whole words only). A few English pseudo-negations are consumed and
  ignored: "not only", "not just", "not bad", "can't wait", "cannot wait",
  "no more than".

Limits: matching is lexical. A dictionary word that merely contains a
marker stays opaque (请勿吸烟, 别去了, 不要脸 are single jieba tokens and do
not count), and jieba-merged 不X words that are not listed (不是, 不会, 不好)
do not count either. "stop" as a noun ("bus stop") does count, and English
inflections are only matched where listed (cancelled, not "stopped").

Segmentation is jieba's algorithm and dictionary through rjieba, the Python binding of jieba-rs (the Rust
port): the same tokens as the reference Python jieba (checked on 200k random strings over markers, punctuation,
whitespace and other scripts; the only differences were exact probability ties inside runs of one repeated
character, e.g. 仅仅仅), about 20x faster, which matters because every saved memory is segmented. The
segmenter is this module's own ``rjieba.Jieba`` instance (no process-global state), built lazily on first
use (~0.1 s), once, under a lock. Text without Han characters never touches it.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import rjieba

__all__ = [
    "CHINESE_MARKERS",
    "ENGLISH_MARKERS",
    "ENGLISH_PSEUDO_NEGATIONS",
    "PSEUDO_NEGATIONS",
    "STANDALONE_NEGATORS",
    "derive_subject",
    "is_negating",
    "negation_markers",
]

# fmt: off
CHINESE_MARKERS: frozenset[str] = frozenset({
    "不要", "禁止", "取消", "不再", "别", "不用", "不必", "停止", "不能", "不可以",
    "不许", "勿", "不想", "不喜欢", "不吃",
    "改为",  # replacement: "会议改为周二" cancels the old value
    "作废", "撤销",
    "请勿", "切勿",  # added: formal prohibitions that jieba keeps as one word
})

# Negators that only count when directly followed by a Han word token.
STANDALONE_NEGATORS: frozenset[str] = frozenset({"不", "没", "没有"})

# Words that contain a negation character but do not negate. First line(s)
# from the brief; the last line are common set phrases added here.
PSEUDO_NEGATIONS: frozenset[str] = frozenset({
    "不错", "差不多", "对不起", "不仅", "不过", "不但", "非常", "未来", "不久", "不少",
    "不断", "了不起", "不得不", "无论", "毫不犹豫",
    "没问题", "没关系", "没事", "不客气", "不好意思", "不管", "不如", "不然", "不得了", "不停",
})

ENGLISH_MARKERS: frozenset[str] = frozenset({
    "don't", "do not", "never", "no longer", "instead of", "not", "stop", "cancel",
    "cancelled", "canceled", "won't", "doesn't", "shouldn't", "avoid", "quit", "no more",
    "rather than",
    "cannot", "can't",  # added: "cannot" is a negation, so is its contraction
})

ENGLISH_PSEUDO_NEGATIONS: frozenset[str] = frozenset({
    "not only", "not just", "not bad", "can't wait", "cannot wait", "no more than",
})
# fmt: on


def _phrase_pattern(phrase: str) -> str:
    # Any run of whitespace between words; either apostrophe inside words.
    words = [re.escape(w).replace("'", "['’]") for w in phrase.split(" ")]
    return r"\s+".join(words)


# Longest first so the alternation prefers "do not" over "not", "no more than"
# over "no more", etc. re.ASCII keeps IGNORECASE from folding e.g. "ſ" to "s".
_EN_PHRASES = sorted(ENGLISH_MARKERS | ENGLISH_PSEUDO_NEGATIONS, key=lambda p: (-len(p), p))
_EN_RE = re.compile(
    r"(?<![A-Za-z0-9_])(?:" + "|".join(_phrase_pattern(p) for p in _EN_PHRASES) + r")(?![A-Za-z0-9_])",
    re.IGNORECASE | re.ASCII,
)
_HAN_RE = re.compile(r"[\u4e00-\u9fff]")
_WS_RE = re.compile(r"\s+")

_segmenter: rjieba.Jieba | None = None
_segmenter_lock = threading.Lock()


def _get_segmenter() -> rjieba.Jieba:
    """Build and prime the segmenter once; later calls are a plain global read."""
    global _segmenter
    if _segmenter is None:
        with _segmenter_lock:
            if _segmenter is None:
                import rjieba

                segmenter = rjieba.Jieba()
                for word in sorted(CHINESE_MARKERS | PSEUDO_NEGATIONS):
                    segmenter.add_word(word, None, None)  # frequency suggested so the word stays whole
                _segmenter = segmenter  # publish only once fully initialised
    return _segmenter


@lru_cache(maxsize=64)
def _tokens(text: str) -> tuple[str, ...]:
    # Cached: a save asks is_negating and derive_subject of the same text back to back; segment it once.
    return tuple(_get_segmenter().cut(text, False))  # hmm=False: the dictionary alone decides


_HAN_WORD_RE = re.compile(r"[\u4e00-\u9fff]+")


def _is_han_word(token: str) -> bool:
    return _HAN_WORD_RE.fullmatch(token) is not None


def _inside_pseudo(text: str, start: int, end: int) -> bool:
    """True if text[start:end] lies inside an occurrence of a pseudo-negation."""
    # Any occurrence found in this window necessarily covers [start, end).
    return any(text.find(p, max(0, end - len(p)), start + len(p)) != -1 for p in PSEUDO_NEGATIONS)


def _is_a_not_a(text: str, start: int) -> bool:
    """X不X / X没X (要不要, 喝不喝) asks a question; it does not negate."""
    return text[start] in "不没" and 0 < start < len(text) - 1 and text[start - 1] == text[start + 1]


_MARKER_TOKENS: frozenset[str] = CHINESE_MARKERS | STANDALONE_NEGATORS


def _token_starts(text: str, tokens: tuple[str, ...]) -> list[int]:
    """Where each token starts in text. The segmenter's tokens concatenate to its input; should one ever not,
    each token is found from where the previous one ended."""
    starts, pos = [], 0
    if "".join(tokens) == text:
        for tok in tokens:
            starts.append(pos)
            pos += len(tok)
        return starts
    for tok in tokens:
        start = text.find(tok, pos)
        start = pos if start == -1 else start
        starts.append(start)
        pos = start + len(tok)
    return starts


def _chinese_markers(text: str) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    tokens = _tokens(text)
    hits = [i for i, tok in enumerate(tokens) if tok in _MARKER_TOKENS]  # most texts have none
    if not hits:
        return found
    starts = _token_starts(text, tokens)
    for i in hits:
        tok, start = tokens[i], starts[i]
        if tok in CHINESE_MARKERS:
            hit = True
        else:  # a standalone negator
            nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
            hit = _is_han_word(nxt) and nxt not in PSEUDO_NEGATIONS
        if hit and not _is_a_not_a(text, start) and not _inside_pseudo(text, start, start + len(tok)):
            found.append((start, tok))
    return found


def _english_matches(text: str) -> list[tuple[int, int, str]]:
    """(start, end, canonical phrase) for every English marker or pseudo-negation."""
    out = []
    for m in _EN_RE.finditer(text):
        canon = _WS_RE.sub(" ", m.group().replace("’", "'").lower())
        out.append((m.start(), m.end(), canon))
    return out


def negation_markers(text: str) -> list[str]:
    """Markers found, in order of appearance (lower-cased for English)."""
    found = [(s, c) for s, _, c in _english_matches(text) if c in ENGLISH_MARKERS]
    if _HAN_RE.search(text):
        found.extend(_chinese_markers(text))
    found.sort(key=lambda item: item[0])  # stable: ties keep insertion order
    return [marker for _, marker in found]


def is_negating(text: str) -> bool:
    return bool(negation_markers(text))


# fmt: off
_EN_STOP_WORDS: frozenset[str] = frozenset({
    "the", "and", "for", "with", "that", "this", "these", "those", "are", "was", "were", "been",
    "being", "have", "has", "had", "you", "your", "yours", "our", "ours", "his", "her", "hers",
    "she", "they", "them", "their", "theirs", "its", "from", "into", "onto", "about", "any",
    "anymore", "again", "more", "longer", "ever", "still", "now", "please", "just", "really",
    "very", "also", "will", "would", "should", "shall", "can", "could", "may", "might", "must",
    "all", "some", "then", "than", "when", "what", "which", "who", "whom", "whose", "where",
    "why", "how", "before", "after", "during", "until", "since", "not", "but", "does", "did",
    "doing", "done", "dont", "doesnt", "shouldnt", "cant", "wont", "instead", "rather", "only",
    "there", "here", "myself", "yourself", "itself", "today", "tomorrow", "yesterday",
})

_ZH_STOP_WORDS: frozenset[str] = frozenset({
    "我们", "你们", "他们", "她们", "它们", "自己", "这个", "那个", "这些", "那些",
    "一个", "什么", "怎么", "已经", "现在", "以后", "今后", "从此", "再也", "然后",
    "因为", "所以", "但是", "而且", "还是", "就是", "可能", "应该", "一下", "一直",
})
# fmt: on

_EN_WORD_RE = re.compile(r"[a-z0-9]+")


def _zh_content(token: str) -> str | None:
    """Content left in a Chinese token after dropping negation, or None."""
    if token in _MARKER_TOKENS:
        if token in STANDALONE_NEGATORS:
            return None
        # 不喜欢 -> 喜欢, 不可以 -> 可以: keep the verb so the negated and the
        # plain statement share it; 不要 -> 要 is too short and is dropped.
        token = token[1:] if token.startswith("不") else ""
    if len(token) < 2 or token in _ZH_STOP_WORDS or not _is_han_word(token):
        return None
    return token


def derive_subject(text: str) -> str | None:
    """Best-effort subject key from text when a record has none (documented heuristic, deterministic).

    Heuristic:
      1. Remove English negation markers (pseudo-negations such as "not bad"
         are kept as content), then take lower-cased ASCII alphanumeric
         words of length >= 3 that are not in a small stop-word list
         (which includes "anymore", "again", "before", ...).
      2. If the text has Han characters, segment it with jieba and take
         Han tokens of length >= 2 that are not stop words. A Chinese marker
         is dropped, except that a leading 不 is stripped and the rest kept
         when it is still >= 2 characters (不喜欢 -> 喜欢).
      3. Sort the set of content words (code-point order) and join the first
         four with "+"; None when nothing is left.

    So "I like coffee in the morning" and "I don't like coffee in the
    morning anymore" both give "coffee+like+morning"; 我喜欢喝咖啡 and
    我不再喜欢喝咖啡 both give "喜欢+喝咖啡".

    Limits: purely lexical. Synonyms, paraphrases and inflections differ
    ("coffee" vs "coffees", 咖啡 vs 喝咖啡); a replacement names both the
    new and the old value ("use pnpm instead of npm" -> "npm+pnpm+use" but
    "use npm" -> "npm+use"); only the four alphabetically first words are
    kept, so long texts that differ late may collide and long texts that
    differ early may not; English words shorter than three characters and
    single Han characters are ignored; segmentation follows jieba's
    dictionary (including the words this module adds to it).
    """
    words: set[str] = set()

    kept: list[str] = []
    last = 0
    for start, end, canon in _english_matches(text):
        if canon in ENGLISH_MARKERS:
            kept.append(text[last:start])
            kept.append(" ")
            last = end
    kept.append(text[last:])
    for word in _EN_WORD_RE.findall("".join(kept).lower()):
        if len(word) >= 3 and word not in _EN_STOP_WORDS:
            words.add(word)

    if _HAN_RE.search(text):
        for tok in _tokens(text):
            content = _zh_content(tok)
            if content is not None:
                words.add(content)

    if not words:
        return None
    return "+".join(sorted(words)[:4])
