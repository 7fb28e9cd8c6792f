"""The learned injection detector: a small multilingual logistic regression over word and CJK-character
uni- and bigrams, trained by scripts/train_injection_detector.py from public corpora (sources and licences in
scripts/injection_corpus.py), its weights in `detector_model.json` beside this file.

`score(text)` is the probability that the text is an injection or jailbreak. Pure Python: one regex pass, a
set of feature strings, one dict lookup each — well under a millisecond for a short text. Long texts are
scored on their first `HEAD` and last `TAIL` characters (the pattern layer and provenance gating see all of
it). What the score decides (refuse / hold for an operator / pass) is service/gates/pipeline.py's, with thresholds
from the settings; there is no way to switch the detector off.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from functools import cache
from itertools import repeat
from pathlib import Path

__all__ = ["HEAD", "TAIL", "features", "long_enough", "recommended", "score"]

MODEL = Path(__file__).resolve().parents[3] / "service" / "gates" / "detector_model.json"
HEAD, TAIL = 4000, 1000
MIN_CHARS = 40  # shorter texts (tags, keys, titles, one-line notes) carry too little for the model
_WIDE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")  # kana, CJK, hangul
WIDE_WEIGHT = 3  # one CJK character says about what a short English word does

_TOKEN = re.compile(r"[a-z0-9]+|[\u3400-\u9fff\uf900-\ufaff]|[^\sa-z0-9\u3400-\u9fff\uf900-\ufaff]")
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g"})
_PUNCT = re.compile(r"[^a-z0-9\u3400-\u9fff\uf900-\ufaff]")
_DIGIT = re.compile(r"[0-9]")
_MIXED = re.compile(r"(?=[a-z]*[0-9])(?=[0-9]*[a-z])[a-z0-9]+")


def long_enough(text: str) -> bool:
    """Whether the model scores `text`: at least MIN_CHARS, counting each CJK / kana / hangul character as
    WIDE_WEIGHT (a 14-character Chinese instruction carries as much as a 40-character English one; counted in
    plain characters, most Chinese injections were too short to be scored at all)."""
    n = len(text)
    if n >= MIN_CHARS:
        return True
    return n + (WIDE_WEIGHT - 1) * len(_WIDE.findall(text)) >= MIN_CHARS


def _fold(text: str) -> str:
    if len(text) > HEAD + TAIL:
        text = text[:HEAD] + "\n" + text[-TAIL:]
    return unicodedata.normalize("NFKC", text).casefold()


def features(text: str) -> set[str]:
    """The feature strings of a text: tokens (latin words, single CJK characters), with letter-digit mixtures
    also read as leetspeak, and adjacent token pairs (punctuation marks included)."""
    folded = _fold(text)
    toks = _TOKEN.findall(folded)
    if _DIGIT.search(folded):  # without a digit there is no letter-digit mixture to read as leetspeak
        # A mixture (`_MIXED`) is an ASCII alphanumeric token that is neither all letters nor all digits: the str
        # predicates say so without a regex call per token (tests/unit/test_detector.py holds them equal).
        toks = [t.translate(_LEET) if t.isascii() and t.isalnum() and not t.isalpha() and not t.isdigit() else t
                for t in toks]
    # Punctuation marks count only next to something (in pairs): alone they say more about the format (JSON,
    # code) than about intent. Tested once per distinct token.
    out = {t for t in set(toks) if not _PUNCT.fullmatch(t)}
    out.update(map(" ".join, zip(toks, toks[1:], strict=False)))
    return out


@cache
def recommended() -> tuple[float, float]:
    """(refuse_at, hold_at) as training chose them on its tune split (the settings' defaults)."""
    t = json.loads(MODEL.read_text(encoding="utf-8"))["thresholds"]
    return float(t["refuse_at"]), float(t["hold_at"])


@cache
def _model() -> tuple[float, dict[str, float]]:
    data = json.loads(MODEL.read_text(encoding="utf-8"))
    return float(data["bias"]), {k: float(v) for k, v in data["weights"].items()}


def score(text: str) -> float:
    """P(injection) for `text`, in [0, 1]. Never raises for a str."""
    bias, weights = _model()
    feats = features(text)
    if not feats:
        return 1.0 / (1.0 + math.exp(-bias))
    z = bias + sum(map(weights.get, feats, repeat(0.0))) / math.sqrt(len(feats))
    z = max(-60.0, min(60.0, z))
    return 1.0 / (1.0 + math.exp(-z))
