"""Hybrid ranking for explicit search and the context's `relevant_memories` arm, and the composer that puts
shared Cypher fragments into the queries that use them.

Ranking — the Cypher is `cypher/fragments/hybrid_rank.cypher`, mirrored here by `fuse`:

1. **Full-text ranking.** Neo4j's `artifact_text` index (cjk analyzer: Chinese bigrams, Latin words) with
   the scope, families and statuses inside the Lucene query; the top `fetch` hits by Lucene score get ranks
   1, 2, …
2. **Vector ranking** (only when an embedder is configured, see service/search/embedding.py). The query is embedded
   and compared by *exact* cosine similarity (`vector.similarity.cosine`, Neo4j's normalised form
   `(1 + cos) / 2`) with every row of the scope embedded by the same model at its current revision; rows at or
   above `min_similarity` are ranked, the top `fetch` kept.
3. **Reciprocal-rank fusion** (Cormack, Clarke & Büttcher 2009), k = `rrf_k` = 60::

       rrf(d) = Σ over the rankings that contain d of 1 / (k + rank(d))

   Fusing ranks rather than raw scores needs no calibration between Lucene's unbounded scores and cosine
   similarities; a row found by both rankings beats a row found by one.
4. **Retention boost**: `score(d) = rrf(d) * (1 + boost * retention(d))`, boost = 0.1, where `retention`
   is RetentionScore (digest/retention.py: recall count, recency of last access, age, trust; in [0, 1])
   computed in the same query by `RETENTION_SCORE_CYPHER`; recency is its recency term. With k = 60 adjacent
   ranks differ by ~1.6 % near the top, so the full boost (≤ 10 %) moves a row a few places at most:
   relevance decides, retention breaks near-ties in favour of what is used, recent and trusted.
5. Order: score descending, then id (stable).

Why exact vector search over the scope rather than `db.index.vector.queryNodes`: the ANN index is global
(all tenants), Neo4j 5.26 cannot filter it by scope, so the only scoped use is over-fetch-then-filter, whose
recall collapses when the scope is a small part of the store (measured: docs/context-and-ranking.md).
A memory scope is small (thousands of rows), where the exact scan is fast and never misses. The vector index
(created at start-up, service/search/embedding.py) stays for analysts and for a future per-scope ANN path.

Fragments: Cypher has no user-defined functions in Neo4j Community (APOC custom functions live in the
database, are registered asynchronously and hide the predicate from the planner), so a shared piece of
Cypher is kept in ONE file and substituted by `compose` into every query that names it as `{{NAME}}` —
once, when the query is first loaded (then cached). Names are checked against an allow-list; a query naming
an unknown fragment, or a fragment left unsubstituted, fails at load time, not at run time.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from neo4j import AsyncManagedTransaction

import cypher
from digest.retention import RetentionWeights, weights_param
from graph import recall as recall_repo
from graph.errors import Invalid
from graph.model import artifact_row

# The composer lives with the Cypher (cypher.compose): RECALL_QUALITY_OK, RETENTION_SCORE and HYBRID_RANK are
# files in cypher/fragments/, substituted once at load time wherever a query names them.
compose = cypher.compose


# ---- the Lucene query ------------------------------------------------------------------------------------------

_LUCENE_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')


def lucene_query(text: str, *, scope_id: str, families: list[str], statuses: list[str]) -> str:
    """Escape the caller's text (lower-cased, so AND/OR/NOT are words, not operators) and confine the query
    to one scope, its families and statuses inside Lucene itself."""
    terms = _LUCENE_SPECIAL.sub(r"\\\1", text.lower()).strip()
    if not terms:
        raise Invalid("query has no searchable text", code="empty_query", details={"field": "query"})
    esc = _LUCENE_SPECIAL.sub(r"\\\1", scope_id)
    return (f"+scope_id:{esc} +family:({' '.join(families)}) +status:({' '.join(statuses)}) "
            f"+(content:({terms}) title:({terms}))")


# ---- parameters and the Python mirror ---------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class RankingParams:
    rrf_k: int = 60
    retention_boost: float = 0.1
    # Neo4j's normalised cosine (1 + cos) / 2, for the Cypher exact scan; None = the embedder's own calibrated
    # cut (service/search/embedding.min_cosine: USE 0.2, e5 0.70), which the scope index applies too.
    min_similarity: float | None = None
    # Weighted RRF: each ranking's weight (service/search/scope_index.py makes both).
    w_ft: float = 1.0
    w_vec: float = 1.0
    # Rank from the in-process scope index (per-scope BM25, exact vectors; rankings tenant-local). False: the
    # Lucene `artifact_text` index and the Cypher vector scan (index-wide term statistics).
    scope_index: bool = True
    # Episodic memories: the weight of the neighbouring episodes' scores (service/search/scope_index.py).
    neighbour_weight: float = 0.5   # measured on the LoCoMo dev split: 0.684 -> 0.761 hit@10
    neighbour_weight_vec: float = 0.0
    # … and of the episodes two away: ±2 turns, halving per turn (dev split 0.761 -> 0.795 hit@10, every
    # conversation up; docs/context-and-ranking.md).
    neighbour_weight_2: float = 0.25
    # A matching row moves this share of the way toward the best matching row that occurred at the same instant (a
    # session's turns saved with its date; dev split with dates as fields 0.824 -> 0.830 hit@10, no conversation
    # down; docs/context-and-ranking.md). Rows saved without an occurred_at each have their own time: unchanged.
    occasion_weight: float = 0.1
    fetch_floor: int = 30        # each ranking contributes at least this many candidates
    fetch_per_result: int = 4    # … or this many per requested result
    fetch_filtered: int = 20     # … or, under a kind/tier/tag filter applied after Lucene's limit, this many
    fetch_cap: int = 2000
    weights: RetentionWeights = RetentionWeights()

    def fetch(self, limit: int, *, filtered: bool = False) -> int:
        per = self.fetch_filtered if filtered else self.fetch_per_result
        return min(max(limit * per, self.fetch_floor), self.fetch_cap)


DEFAULT = RankingParams()


def fused_score(ft_rank: int | None, vec_rank: int | None, retention: float,
                params: RankingParams = DEFAULT) -> float:
    """The final score, exactly as fragments/hybrid_rank.cypher computes it."""
    k = params.rrf_k
    fused = (params.w_ft / (k + ft_rank) if ft_rank is not None else 0.0) + (
        params.w_vec / (k + vec_rank) if vec_rank is not None else 0.0)
    return fused * (1.0 + params.retention_boost * retention)


def fuse(ft: Sequence[str], vec: Sequence[str], retention: Mapping[str, float],
         params: RankingParams = DEFAULT) -> list[tuple[str, float]]:
    """Fuse two rankings (ids, best first) into (id, score), best first, ties by id. The Python mirror of the
    Cypher, for tests and for reasoning about the method."""
    ft_rank = {d: i + 1 for i, d in enumerate(dict.fromkeys(ft))}
    vec_rank = {d: i + 1 for i, d in enumerate(dict.fromkeys(vec))}
    scored = [(d, fused_score(ft_rank.get(d), vec_rank.get(d), retention.get(d, 0.0), params))
              for d in {**ft_rank, **vec_rank}]
    return sorted(scored, key=lambda x: (-x[1], x[0]))


def min_sim(params: RankingParams, min_cosine: float) -> float:
    """The Cypher scan's cut in Neo4j's normalised cosine: the params' own, else the model's calibration."""
    return params.min_similarity if params.min_similarity is not None else (1.0 + min_cosine) / 2.0


def hybrid_params(*, lucene: str | None, qvec: list[float] | None, model: str | None, scope_id: str,
                  families: list[str], statuses: list[str], fetch: int, now: datetime,
                  kind: str | None = None, tier: str | None = None, tag: str | None = None,
                  params: RankingParams = DEFAULT, min_cosine: float = 0.2,
                  ft_ids: list[str] | None = None, vec_ids: list[str] | None = None,
                  as_of: datetime | None = None, any_time: bool = False,
                  occurred_from: datetime | None = None, occurred_to: datetime | None = None,
                  held: Sequence[Any] | None = None) -> dict[str, Any]:
    """The parameters of fragments/hybrid_rank.cypher (`ft_ids` / `vec_ids`: rankings made by the scope index,
    which take the place of the Lucene query and the Cypher vector scan). The query's own inputs travel in one
    map, `q`: Neo4j caches a plan per parameter type and size class, so as separate parameters a null, an empty
    list and lists of 5 or 30 ids each cost the query a plan of its own (seconds for the context query).
    Valid time: hits hold at `as_of` (default `now`) unless `any_time`; `occurred_from` / `occurred_to` bound
    occurred_at (fragments/search_filter.cypher). `held`: the version of the scope copy that made `ft_ids` without
    a version read first, which the query's guard checks (fragments/version_guard.cypher), or None."""
    return {"q": {"lucene": lucene, "qvec": qvec, "model": model, "ft_ids": ft_ids, "vec_ids": vec_ids,
                  "kind": kind, "tier": tier, "tag": tag, "any_time": any_time, "occurred_from": occurred_from,
                  "occurred_to": occurred_to, "held": list(held[:3]) if held is not None else None},
            "scope_id": scope_id, "families": families, "statuses": statuses, "fetch": fetch,
            "min_sim": min_sim(params, min_cosine), "rrf_k": params.rrf_k, "boost": params.retention_boost,
            "w_ft": params.w_ft, "w_vec": params.w_vec, "now": now, "as_of": as_of or now,
            "w": weights_param(params.weights)}


@dataclass(frozen=True, slots=True)
class RankedHit:
    artifact: dict[str, Any]
    score: float
    ft_rank: int | None
    vec_rank: int | None
    retention: float


async def hybrid_search(tx: AsyncManagedTransaction, /, *, limit: int, recall: bool,
                        **params: Any) -> list[RankedHit] | None:
    """The hybrid search (graph/recall.py) in the caller's transaction: one query, hits in rank order; None when its
    version guard found the scope moved since the copy that ranked `q.ft_ids` (fragments/version_guard.cypher:
    nothing was counted)."""
    rows = await recall_repo.hybrid(tx, limit=limit, recall=recall, **params)
    if any(not r["current"] for r in rows):
        return None
    hits = [RankedHit(artifact_row(r["artifact"]), float(r["score"]), r["ft_rank"], r["vec_rank"],
                      float(r["retention"])) for r in rows]
    return sorted(hits, key=lambda h: (-h.score, h.artifact["id"]))
