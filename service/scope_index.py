"""The in-process scope index: an exact, per-scope lexical index (service/lexical.py, BM25 with the scope's
own statistics) and vector matrix, kept per scope and rebuilt from Neo4j when the scope's version changes.

Why: Lucene's term statistics are index-wide, so with the `artifact_text` index a scope's ranking (and its
scores) moved when another tenant saved 100,000 memories; here every number a ranking uses — document
frequencies, lengths, the candidate set — comes from the scope alone. The vector half becomes a matrix
product instead of a Cypher scan (~35 µs a row).

Neo4j stays the only truth. A copy is tagged with the scope's *version* — the newest `updated_at` (saves and
updates), `embedded_at` (vectors) and tombstone `removed_at` (deletions) of the scope, three index-backed seeks
(search/scope_version.cypher) read at the start of every search's (and context call's) own transaction; a
different version reloads the scope (search/scope_corpus.cypher, in that same transaction). Status, kind, tier
and tags are not copied: search/hybrid_rank.cypher filters them on the live nodes, so an approval, an archive or
a digest pass never needs a reload.

Ranking, given the query's tokens and (optionally) its vector:
- lexical: BM25 per document; for an *episodic* memory, plus `neighbour_weight` × the BM25 of the episodes
  saved just before and after it in the scope (a conversation's turn is often answered by the next one) and
  `neighbour_weight_2` × those of the episodes two away (context fades with distance: half again);
- vector: cosine with the query (rows below the model's calibrated `min_cosine` are dropped), likewise plus
  `neighbour_weight_vec` × its neighbouring episodes' cosines;
- each keeps its top `fetch`, best first; ties by position (oldest first).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
from neo4j import AsyncManagedTransaction

from graph import recall as recall_repo
from graph.driver import Graph
from service import lexical

T = TypeVar("T")
MAX_SCOPES = 256  # copies kept (least recently used dropped first)


@dataclass(frozen=True, slots=True)
class IndexParams:
    neighbour_weight: float = 0.0
    neighbour_weight_vec: float = 0.0
    min_cosine: float = 0.2
    neighbour_weight_2: float = 0.0  # the episodes two away (lexical ranking only)


@dataclass(slots=True)
class ScopeCopy:
    version: tuple[Any, ...]
    model: str | None
    ids: list[str]
    families: np.ndarray
    bm25: lexical.BM25
    vectors: np.ndarray | None        # (n, d) float32; rows without a current vector are zero
    has_vector: np.ndarray            # (n,) bool
    episodes: np.ndarray              # positions of the scope's episodes, in order: each one's neighbours are
                                      # the chain's previous and next entries (one and two away)
    masks: dict[tuple[str, ...], np.ndarray]  # rows of each family set asked for (filled on first use)

    @classmethod
    def build(cls, version: tuple[Any, ...], model: str | None, rows: Sequence[dict[str, Any]]) -> ScopeCopy:
        ids = [str(r["id"]) for r in rows]
        texts = [f"{r['title']}\n{r['content'] or ''}" if r.get("title") else str(r.get("content") or "")
                 for r in rows]
        bm25 = lexical.BM25.build([lexical.tokens(t) for t in texts])
        vecs = [r.get("embedding") for r in rows]
        has = np.array([v is not None for v in vecs], dtype=bool)
        matrix = None
        if has.any():
            dim = len(next(v for v in vecs if v is not None))
            matrix = np.zeros((len(rows), dim), dtype=np.float32)
            for i, v in enumerate(vecs):
                if v is not None and len(v) == dim:
                    matrix[i] = v
            norms = np.linalg.norm(matrix, axis=1, keepdims=True)
            matrix /= np.where(norms == 0, 1.0, norms)
        episodes = [i for i, r in enumerate(rows) if r.get("family") == "memory" and r.get("kind") == "episodic"]
        return cls(version, model, ids, np.array([str(r.get("family")) for r in rows]), bm25, matrix, has,
                   np.array(episodes, dtype=np.int64), {})

    def family_mask(self, families: Sequence[str]) -> np.ndarray:
        """Which rows belong to `families` (computed once per copy and family set: np.isin over 100,000
        strings is ~1 ms a query)."""
        key = tuple(sorted(families))
        mask = self.masks.get(key)
        if mask is None:
            mask = np.isin(self.families, list(key)) if len(self.ids) else np.zeros(0, dtype=bool)
            self.masks[key] = mask
        return mask

    def _smooth(self, scores: np.ndarray, weight: float, valid: np.ndarray, weight_2: float = 0.0) -> np.ndarray:
        """Each valid episode's score plus `weight` × its valid neighbours' one turn away and `weight_2` × two
        away. Only episodes have neighbours, and they form one chain (`episodes`, in order), so the neighbours
        are the chain shifted by one and two: slices, not gathers over every row. Per row the arithmetic is
        that of the plain formula, w·(prev + next) + w2·(prev2 + next2), a missing neighbour reading 0.0, so
        the floats are the same (tests/unit/test_lexical.py holds it to that formula)."""
        if (weight == 0.0 and weight_2 == 0.0) or not len(scores) or len(self.episodes) < 2:
            return scores
        ep = self.episodes
        ok = valid[ep]
        base = np.where(ok, scores[ep], 0.0)
        zero1, zero2 = np.zeros(1), np.zeros(2)
        lent = weight * (np.concatenate((zero1, base[:-1])) + np.concatenate((base[1:], zero1)))
        if weight_2:
            lent = lent + weight_2 * (np.concatenate((zero2, base[:-2])) + np.concatenate((base[2:], zero2)))
        out = scores.copy()
        out[ep] = np.where(ok, scores[ep] + lent, scores[ep])
        return out

    @staticmethod
    def _top(scores: np.ndarray, mask: np.ndarray, fetch: int) -> list[int]:
        """The `fetch` best rows of `mask`, score descending, then position. Rows below the fetch-th best score
        cannot be among them, so only those at or above it are sorted (np.partition finds it in linear time)."""
        cand = np.flatnonzero(mask)
        if not len(cand) or fetch <= 0:
            return []
        if len(cand) > fetch:
            s = scores[cand]
            kth = np.partition(s, len(s) - fetch)[len(s) - fetch]
            cand = cand[s >= kth]
        order = np.lexsort((cand, -scores[cand]))  # score desc, then position
        return [int(i) for i in cand[order[:fetch]]]

    def lexical_scores(self, query: str, params: IndexParams) -> np.ndarray:
        """Every row's lexical score (BM25 plus its neighbouring episodes'), in copy order (`ids`)."""
        bm = self.bm25.scores(lexical.tokens(query))
        return self._smooth(bm, params.neighbour_weight, np.ones(len(bm), dtype=bool), params.neighbour_weight_2)

    def rank(self, query: str, qvec: Sequence[float] | None, families: Sequence[str], fetch: int,
             params: IndexParams) -> tuple[list[str], list[str]]:
        fam = self.family_mask(families)
        bm = self.lexical_scores(query, params)
        ft = self._top(bm, fam & (bm > 0), fetch)
        vec: list[int] = []
        if qvec is not None and self.vectors is not None:
            q = np.asarray(qvec, dtype=np.float32)
            q /= np.linalg.norm(q) or 1.0
            cos = self.vectors @ q
            keep = self.has_vector & (cos >= params.min_cosine)
            cos = self._smooth(cos.astype(np.float64), params.neighbour_weight_vec, keep)
            vec = self._top(cos, fam & keep, fetch)
        return [self.ids[i] for i in ft], [self.ids[i] for i in vec]


def _version(row: dict[str, Any], model: str | None) -> tuple[Any, ...]:
    return (row.get("updated"), row.get("embedded"), row.get("removed"), model)


class ScopeIndexes:
    """The process's copies, by scope id and embedding model (LRU-bounded): a process that searches one scope
    with and without its embedder (a benchmark, an operator's comparison) keeps both copies instead of
    reloading the scope at every switch."""

    def __init__(self, max_scopes: int = MAX_SCOPES) -> None:
        self._copies: OrderedDict[tuple[str, str | None], ScopeCopy] = OrderedDict()
        self._max = max_scopes
        self.loads = 0  # how many times a scope was (re)loaded: for tests and the eval

    async def copy(self, on: Graph | AsyncManagedTransaction, scope_id: str, model: str | None) -> ScopeCopy:
        """The scope's current copy: one cheap version read; a reload only when the version moved. `on` is the
        caller's transaction (search and context read the version in the transaction that then ranks, one round
        trip instead of a transaction of its own: ~8 ms at 100k on a loaded machine) or the Graph."""
        row = await _run(on, recall_repo.scope_version, scope_id=scope_id)
        key = (scope_id, model)
        current = self._copies.get(key)
        if current is not None and current.version == _version(row, model):
            self._copies.move_to_end(key)
            return current
        # No lock: two searches racing on a stale copy both reload (same result); a lock would tie the
        # process-wide cache to one event loop.
        version, rows = await _run(on, recall_repo.scope_corpus, scope_id=scope_id, model=model)
        built = await asyncio.to_thread(ScopeCopy.build, _version(version, model), model, rows)
        self.loads += 1
        self._copies[key] = built
        self._copies.move_to_end(key)
        while len(self._copies) > self._max:
            self._copies.popitem(last=False)
        return built

    def clear(self) -> None:
        self._copies.clear()


INDEXES = ScopeIndexes()


async def _run(on: Graph | AsyncManagedTransaction, fn: Callable[..., Awaitable[T]], **params: Any) -> T:
    """A repository read in the caller's transaction, or in a read transaction of its own on a Graph."""
    return await (on.read(fn, **params) if isinstance(on, Graph) else fn(on, **params))


def index_params(model: Any, params: Any) -> IndexParams:
    """The scope index's parameters for an embedder (or None) and a service.ranking.RankingParams."""
    from service.embedding import min_cosine  # late: embedding imports nothing from here, keep it that way

    cut = min_cosine(model)
    if params.min_similarity is not None:
        cut = 2.0 * params.min_similarity - 1.0
    return IndexParams(neighbour_weight=params.neighbour_weight, neighbour_weight_vec=params.neighbour_weight_vec,
                       min_cosine=cut, neighbour_weight_2=params.neighbour_weight_2)


async def rank(on: Graph | AsyncManagedTransaction, scope_id: str, *, query: str, qvec: list[float] | None,
               model: Any, families: Sequence[str], fetch: int,
               params: Any) -> tuple[list[str], list[str] | None]:
    """The scope index's two rankings for one search (ids, best first); vec is None without a query vector.
    `model` is the embedder (or None), `params` a service.ranking.RankingParams; `on` as for ScopeIndexes.copy."""
    name = model.name if model is not None else None
    copy = await INDEXES.copy(on, scope_id, name)
    ft, vec = copy.rank(query, qvec, families, fetch, index_params(model, params))
    return ft, (vec if qvec is not None else None)
