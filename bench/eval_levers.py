"""`python -m bench.eval_levers [--lexical]` — the recall levers swept in-process on the LoCoMo dev split.

The same ranking code as the service's search (service/search/scope_index.ScopeCopy: per-scope BM25, stemming, stop
words, neighbouring episodes, exact vectors; service/search/ranking.fuse: weighted RRF), fed the dev split's turns
directly instead of through Neo4j, so dozens of configurations take a minute instead of an hour on a loaded
machine. What it leaves out — the live status filter and the retention boost, equal for every turn of a freshly
saved conversation — is what `make eval` (bench/eval_recall.py) measures through the service's own paths.
Vectors come from the on-disk memo that `make eval` fills (bench/eval_cache.py); an embedder whose vectors are
not all memoised is embedded here (slow on a CPU shared by many).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bench import eval_data
from bench.eval_cache import CachedEmbedder
from bench.eval_recall import Score
from service.search import lexical, ranking
from service.search.embedding import make_embedder, min_cosine
from service.search.scope_index import IndexParams, ScopeCopy


@dataclass(frozen=True, slots=True)
class Lever:
    name: str
    analysis: lexical.Analysis = lexical.Analysis()
    nb: float = 0.0
    nb_vec: float = 0.0
    nb2: float = 0.0                 # the episodes two away
    w_ft: float = 1.0
    w_vec: float = 1.0
    vectors: bool = False
    cut: float | None = None  # None: the model's calibrated min_cosine
    k1: float = 1.2
    b: float = 0.75
    text: str = "turn"        # what is indexed: "turn" (as saved), "dated" (session date first), "no-speaker"
    query_stop: frozenset[str] = frozenset()  # extra query words dropped (question clean-up)
    prf: tuple[int, int, float] | None = None  # RM3-style feedback: (docs, terms, weight)


# Words frequent in LoCoMo-style questions and rare as answers' content ("What kind of …", "Would X likely …").
QUESTION_WORDS = frozenset(["kind", "type", "think", "like", "likely", "thing", "things", "ever", "many", "much",
                            "recent", "recently", "would", "might", "one", "get", "got", "go", "went", "make",
                            "made", "feel", "felt"])
D = ranking.DEFAULT


def levers() -> list[Lever]:
    a0, a1 = lexical.Analysis(stem=False, stop=False), lexical.Analysis(stem=False)
    nb, nb2 = D.neighbour_weight, D.neighbour_weight_2
    out = [Lever("BM25, no stemming, no stop words", a0), Lever("BM25 + stop words", a1),
           Lever("BM25 + stop words + stemming")]
    out += [Lever(f"  + neighbour turns ±1 × {w}", nb=w) for w in (0.1, 0.2, 0.3, 0.5, 0.7)]
    out += [Lever(f"  + neighbour turns ±1 × 0.5, ±2 × {w2}", nb=0.5, nb2=w2) for w2 in (0.1, 0.2, 0.25, 0.3)]
    out += [Lever("  + neighbour turns ±1 × 0.4, ±2 × 0.2", nb=0.4, nb2=0.2),
            Lever("  + neighbour turns ±1 × 0.6, ±2 × 0.3", nb=0.6, nb2=0.3)]
    default = {"nb": nb, "nb2": nb2}
    out += [Lever(f"default (±1 × {nb}, ±2 × {nb2}) + BM25 k1 {k1} b {b}", k1=k1, b=b, **default)  # type: ignore[arg-type]
            for k1, b in ((0.9, 0.75), (1.5, 0.75), (1.2, 0.5), (1.2, 0.3), (0.9, 0.3))]
    out += [Lever("default + the session's date in the indexed text", text="dated", **default),  # type: ignore[arg-type]
            Lever("default - the speaker's name in the indexed text", text="no-speaker", **default),  # type: ignore[arg-type]
            Lever("default + question words dropped from the query", query_stop=QUESTION_WORDS, **default),  # type: ignore[arg-type]
            Lever("default + RM3 feedback (5 docs, 10 terms, 0.3)", prf=(5, 10, 0.3), **default),  # type: ignore[arg-type]
            Lever("default + RM3 feedback (3 docs, 10 terms, 0.3)", prf=(3, 10, 0.3), **default),  # type: ignore[arg-type]
            Lever("±1 × 0.5 + RM3 feedback (5 docs, 10 terms, 0.3)", nb=0.5, prf=(5, 10, 0.3))]
    out += [Lever("e5 dense only", w_ft=0.0, vectors=True, nb=0.0),
            Lever("e5 dense only, no similarity cut", w_ft=0.0, vectors=True, cut=-1.0),
            Lever("e5 + BM25 (RRF 1:1)", vectors=True)]
    out += [Lever(f"e5 + default lexical, vector neighbours {nbv}, RRF 1:{wv:g}", nb_vec=nbv, w_vec=wv, vectors=True,
                  **default)  # type: ignore[arg-type]
            for nbv in (0.0, 0.1, 0.2) for wv in (1.0, 0.5)]
    return out


def _text(turn: eval_data.Turn, how: str) -> str:
    if how == "dated":
        return f"{turn.date_time}\n{turn.text}"
    if how == "no-speaker":
        return turn.text.split(": ", 1)[-1]
    return turn.text


def _feedback(copy: ScopeCopy, query: str, params: IndexParams, prf: tuple[int, int, float]) -> np.ndarray:
    """RM3-style pseudo-relevance feedback on the scope's own index: the top `docs` of the first pass lend
    their `terms` best terms (weight ∝ score × tf / length × idf), mixed in at `weight` × the query's length."""
    docs, terms, weight = prf
    first = copy.lexical_scores(query, params)
    top = [int(i) for i in np.argsort(-first, kind="stable")[:docs] if first[i] > 0]
    qt = lexical.tokens(query, copy.analysis)
    base = copy.bm25.scores(qt)
    if not top:
        return copy.lexical_scores(query, params)
    acc: dict[str, float] = {}
    for i in top:
        toks = copy_tokens(copy)[i]
        for t in set(toks):
            acc[t] = acc.get(t, 0.0) + first[i] * toks.count(t) / max(len(toks), 1)
    cand = sorted(((t, v * copy.bm25.idf(t)) for t, v in acc.items() if t not in set(qt)), key=lambda x: -x[1])
    chosen = cand[:terms]
    total = sum(v for _, v in chosen) or 1.0
    extra = sum(((v / total) * copy.bm25.scores([t]) for t, v in chosen), np.zeros(len(base)))
    mixed = base + weight * max(len(qt), 1) * extra
    return copy._smooth(mixed, params.neighbour_weight, np.ones(len(mixed), dtype=bool), params.neighbour_weight_2)


_TOKENS: dict[int, list[list[str]]] = {}


def copy_tokens(copy: ScopeCopy) -> list[list[str]]:
    return _TOKENS[id(copy)]


def run(convs: Sequence[eval_data.Conversation], embedder_name: str = "e5-small", *,
        lexical_only: bool = False) -> dict[str, dict[str, Any]]:
    emb = CachedEmbedder(make_embedder(embedder_name))  # type: ignore[arg-type]
    vecs = {c.id: ([[0.0]] * len(c.turns) if lexical_only else emb.embed([t.text for t in c.turns])) for c in convs}
    qvecs = {c.id: ([[0.0]] * len(c.questions) if lexical_only else emb.embed_query([q.text for q in c.questions]))
             for c in convs}
    if not lexical_only:
        emb.save()
    out: dict[str, dict[str, Any]] = {}
    for lever in levers():
        if lexical_only and lever.vectors:
            continue
        score = Score()
        for c in convs:
            rows = [{"id": t.dia_id, "family": "memory", "kind": "episodic", "content": _text(t, lever.text),
                     "embedding": v if lever.vectors else None} for t, v in zip(c.turns, vecs[c.id], strict=True)]
            copy = ScopeCopy.build((), emb.name, rows, lever.analysis)
            if (lever.k1, lever.b) != (1.2, 0.75):
                copy.bm25 = lexical.BM25.build([lexical.tokens(str(r["content"]), lever.analysis) for r in rows],
                                               k1=lever.k1, b=lever.b)
            _TOKENS[id(copy)] = [lexical.tokens(str(r["content"]), lever.analysis) for r in rows]
            cut = min_cosine(emb) if lever.cut is None else lever.cut
            params = IndexParams(neighbour_weight=lever.nb, neighbour_weight_vec=lever.nb_vec, min_cosine=cut,
                                 neighbour_weight_2=lever.nb2)
            rp = ranking.RankingParams(w_ft=lever.w_ft, w_vec=lever.w_vec)
            for q, qv in zip(c.questions, qvecs[c.id], strict=True):
                text = " ".join(w for w in re.findall(r"\S+", q.text)
                                if re.sub(r"\W", "", w.lower()) not in lever.query_stop)
                ft, vec = copy.rank(text, qv if lever.vectors else None, ["memory"], 40, params)
                if lever.prf is not None:
                    fb = _feedback(copy, text, params, lever.prf)
                    ft = [copy.ids[i] for i in np.lexsort((np.arange(len(fb)), -fb))[:40] if fb[i] > 0]
                if lever.w_ft == 0.0:
                    ft = []
                fused = [d for d, _ in ranking.fuse(ft, vec, {}, rp)]
                score.add(q.category, fused[:10], q.evidence)
            _TOKENS.pop(id(copy), None)
        out[lever.name] = score.summary()
    return out


def main() -> int:
    convs = eval_data.load()
    res = run(convs, lexical_only="--lexical" in sys.argv)
    cats = list(eval_data.CATEGORIES.values())
    print(f"{'lever':66s} hit@10  hit@5  " + "  ".join(f"{c[:11]:>11s}" for c in cats))
    for name, s in res.items():
        print(f"{name:66s} {s['hit@10']:.3f}  {s['hit@5']:.3f}  "
              + "  ".join(f"{s[f'{c} hit@10']:11.3f}" for c in cats))
    return 0


if __name__ == "__main__":
    sys.exit(main())
