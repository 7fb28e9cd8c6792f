"""`python -m bench.eval_levers [--lexical]` — the recall levers swept in-process on the LoCoMo dev split.

The same ranking code as the service's search (service/scope_index.ScopeCopy: per-scope BM25, stemming, stop
words, neighbouring episodes, exact vectors; service/ranking.fuse: weighted RRF), fed the dev split's turns
directly instead of through Neo4j, so dozens of configurations take a minute instead of an hour on a loaded
machine. What it leaves out — the live status filter and the retention boost, equal for every turn of a freshly
saved conversation — is what `make eval` (bench/eval_recall.py) measures through the service's own paths.
Vectors come from the on-disk memo that `make eval` fills (bench/eval_cache.py); an embedder whose vectors are
not all memoised is embedded here (slow on a CPU shared by many).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bench import eval_data
from bench.eval_cache import CachedEmbedder
from bench.eval_recall import Score
from service import lexical, ranking
from service.embedding import make_embedder, min_cosine
from service.scope_index import IndexParams, ScopeCopy


@dataclass(frozen=True, slots=True)
class Lever:
    name: str
    analysis: lexical.Analysis = lexical.Analysis()
    nb: float = 0.0
    nb_vec: float = 0.0
    w_ft: float = 1.0
    w_vec: float = 1.0
    vectors: bool = False
    cut: float | None = None  # None: the model's calibrated min_cosine


def levers() -> list[Lever]:
    a0, a1 = lexical.Analysis(stem=False, stop=False), lexical.Analysis(stem=False)
    out = [Lever("BM25, no stemming, no stop words", a0), Lever("BM25 + stop words", a1),
           Lever("BM25 + stop words + stemming")]
    out += [Lever(f"  + neighbour turns {w}", nb=w) for w in (0.1, 0.2, 0.3, 0.5)]
    out += [Lever("e5 dense only", w_ft=0.0, vectors=True, nb=0.0),
            Lever("e5 dense only, no similarity cut", w_ft=0.0, vectors=True, cut=-1.0),
            Lever("e5 + BM25 (RRF 1:1)", vectors=True)]
    for nb in (0.2, 0.3):
        for nbv in (0.0, 0.1, 0.2, 0.3):
            out.append(Lever(f"e5 + BM25, neighbours lexical {nb} / vector {nbv}", nb=nb, nb_vec=nbv, vectors=True))
    for wf, wv in ((1.0, 1.5), (1.0, 2.0), (1.5, 1.0), (2.0, 1.0)):
        out.append(Lever(f"e5 + BM25 + neighbours 0.2/0.1, RRF {wf:g}:{wv:g}", nb=0.2, nb_vec=0.1, w_ft=wf,
                         w_vec=wv, vectors=True))
    return out


def run(convs: Sequence[eval_data.Conversation], embedder_name: str = "e5-small", *,
        lexical_only: bool = False) -> dict[str, dict[str, Any]]:
    emb = CachedEmbedder(make_embedder(embedder_name))  # type: ignore[arg-type]
    none: list[list[float]] = []
    vecs = {c.id: none * 0 + ([[0.0]] * len(c.turns) if lexical_only else emb.embed([t.text for t in c.turns]))
            for c in convs}
    qvecs = {c.id: ([[0.0]] * len(c.questions) if lexical_only else emb.embed_query([q.text for q in c.questions]))
             for c in convs}
    if not lexical_only:
        emb.save()
    out: dict[str, dict[str, Any]] = {}
    for lever in levers():
        if lexical_only and lever.vectors:
            continue
        lexical.ANALYSIS = lever.analysis
        score = Score()
        for c in convs:
            rows = [{"id": t.dia_id, "family": "memory", "kind": "episodic", "content": t.text,
                     "embedding": v if lever.vectors else None} for t, v in zip(c.turns, vecs[c.id], strict=True)]
            copy = ScopeCopy.build((), emb.name, rows)
            cut = min_cosine(emb) if lever.cut is None else lever.cut
            params = IndexParams(lever.nb, lever.nb_vec, cut)
            rp = ranking.RankingParams(w_ft=lever.w_ft, w_vec=lever.w_vec)
            for q, qv in zip(c.questions, qvecs[c.id], strict=True):
                ft, vec = copy.rank(q.text, qv if lever.vectors else None, ["memory"], 40, params)
                if lever.w_ft == 0.0:
                    ft = []
                fused = [d for d, _ in ranking.fuse(ft, vec, {}, rp)]
                score.add(q.category, fused[:10], q.evidence)
        out[lever.name] = score.summary()
        lexical.ANALYSIS = lexical.Analysis()
    return out


def main() -> int:
    convs = eval_data.load()
    res = run(convs, lexical_only="--lexical" in sys.argv)
    cats = list(eval_data.CATEGORIES.values())
    print(f"{'lever':58s} hit@10  hit@5  " + "  ".join(f"{c[:11]:>11s}" for c in cats))
    for name, s in res.items():
        print(f"{name:58s} {s['hit@10']:.3f}  {s['hit@5']:.3f}  "
              + "  ".join(f"{s[f'{c} hit@10']:11.3f}" for c in cats))
    return 0


if __name__ == "__main__":
    sys.exit(main())
