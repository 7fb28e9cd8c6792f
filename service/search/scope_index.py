"""The in-process scope index: an exact, per-scope lexical index (service/search/lexical.py, BM25 with the scope's
own statistics) and vector matrix, kept per scope and rebuilt from Neo4j when the scope's version changes.

Why: Lucene's term statistics are index-wide, so with the `artifact_text` index a scope's ranking (and its
scores) moved when another tenant saved 100,000 memories; here every number a ranking uses — document
frequencies, lengths, the candidate set — comes from the scope alone. The vector half becomes a matrix
product instead of a Cypher scan (~35 µs a row).

Neo4j stays the only truth. A copy is tagged with the scope's *version* — the newest `updated_at` (saves and
updates), `embedded_at` (vectors) and tombstone `removed_at` (deletions) of the scope, three index-backed seeks
(search/scope_version.cypher) read at the start of every search's (and context call's) own transaction; a
different version brings the copy up to date in that same transaction. When no vector moved, the ids of the rows
deleted since the copy's version (tombstones, search/scope_removed.cypher) and the rows written since
(search/scope_delta.cypher), each a range seek, bring it up to date (`ScopeCopy.extended`): deleted rows leave
it, new rows after its last one are appended, rows it holds get their new text (an update) or are passed over,
and the result equals a full build of the scope. The delta looks back LOOKBACK_S before the version for writes
that committed late; the rows of that window come as ids and write stamps only, and only those the copy does not
hold with that stamp are read again, whole, by id (search/scope_rows.cypher), so a batch of saves is not read
again on every search of the minute after it. Anything else (a row committed out of order, a vector, a delta
larger than a quarter of the copy) reloads the scope (search/scope_corpus.cypher). A save followed by a search at
100,000 memories was a 12 s reload; it is now one small delta. Status, kind, tier and tags are not copied:
fragments/hybrid_rank.cypher filters them on the live nodes, so an approval, an archive or a digest pass never needs
a reload.

Ranking, given the query's tokens and (optionally) its vector:
- lexical: BM25 per document; for an *episodic* memory, plus `neighbour_weight` × the BM25 of the episodes
  saved just before and after it in the scope (a conversation's turn is often answered by the next one) and
  `neighbour_weight_2` × those of the episodes two away (context fades with distance: half again);
- vector: cosine with the query (rows below the model's calibrated `min_cosine` are dropped), likewise plus
  `neighbour_weight_vec` × its neighbouring episodes' cosines;
- each keeps its top `fetch`, best first; ties by position (oldest first).
With a query's time (`rank`'s `when`: the intervals it names against its `now`, and whether it asks when), each
row's lexical score is multiplied before the cut by service/search/temporal's rule, from the row's occurred_at and
the intervals its own text names (the row's stored `said`, else its text resolved against its occurred_at when the
copy is built); without one, nothing changes. Then each matching row is pulled `occasion_weight` of the way toward
the best score among the matching rows that occurred at the same instant (one occasion: the turns of a session
saved with its date as their occurred_at); a row alone at its time — every row saved without an occurred_at has its
own save time — keeps its score.
"""

from __future__ import annotations

import asyncio
import sys
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

import numpy as np
from neo4j import AsyncManagedTransaction

from graph import recall as recall_repo
from graph.driver import Graph
from service.search import lexical, temporal

T = TypeVar("T")
MAX_SCOPES = 256  # copies kept (least recently used dropped first)
# Bytes the copies may hold together (ScopeCopy.footprint), least recently used dropped first; the copy just made
# stays even when it alone is larger (it is answering). COGNITION_SCOPE_COPIES_MB sets it per process.
MAX_BYTES = 1024 * 2**20
_ARRAY = 112  # a numpy array's own object (sys.getsizeof of an empty one), beside its data
# How far before the copy's version a delta reads: a write takes its updated_at before it runs, and a save is retried
# for up to graph.driver.MAX_RETRY_S (8 s), so its commit can land after a newer write's. Such a row sorts before the
# copy's last row, so the extension refuses it and the scope is reloaded, as before.
LOOKBACK_S = 60.0
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)  # "since" for a version part the copy did not have (no write, no deletion)
MAX_DELTA_SHARE = 0.25  # a delta with more rows than this share of the copy reloads instead (a reload is cheaper)


@dataclass(frozen=True, slots=True)
class IndexParams:
    neighbour_weight: float = 0.0
    neighbour_weight_vec: float = 0.0
    min_cosine: float = 0.2
    neighbour_weight_2: float = 0.0  # the episodes two away (lexical ranking only)
    time: temporal.TimeRule = temporal.DEFAULT_RULE  # how a query's time moves lexical scores (rank's `when`)
    occasion_weight: float = 0.0  # how far a matching row moves toward its occasion's best score (`_occasions`)


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
    # For extending the copy (`extended`); None when a row has no created_at (it would not sort as an integer):
    created: np.ndarray | None        # (n,) int64 created_at, ns since the epoch: with `ids`, the copy's order
    stamps: np.ndarray | None         # (n,) int64 updated_at, ns (-1 where none)
    digests: np.ndarray | None        # (n,) int64 hash of what is indexed of the row: family, kind, text, said
    analysis: lexical.Analysis = lexical.DEFAULT_ANALYSIS  # how its texts and the queries it ranks are tokenized
    # When each row happened (its occurred_at, else its created_at; ns) and the intervals its own text names, resolved
    # against that (service/search/temporal): what a query's time ranks by. None where a row has neither time.
    occurred: np.ndarray | None = None
    said: temporal.RowTimes | None = None
    measured: int = field(default=-1, compare=False)  # footprint(), once computed

    def footprint(self) -> int:
        """The bytes this copy holds, counted from its arrays and containers (ids, postings, columns, vectors;
        not the family masks a query adds later, a byte a row each): within a third of what building it allocated
        (tests/unit/test_scope_copy_bytes.py). Computed once; the cache calls it off the event loop."""
        if self.measured < 0:
            arrays = [self.families, self.has_vector, self.episodes, self.created, self.stamps, self.digests,
                      self.vectors, self.bm25.lengths, self.bm25.norm, self.occurred]
            n = sum(a.nbytes + _ARRAY for a in arrays if a is not None)
            n += self.said.nbytes + 3 * _ARRAY if self.said is not None else 0
            n += sys.getsizeof(self.ids) + sum(map(sys.getsizeof, self.ids))
            postings = self.bm25.postings
            n += sys.getsizeof(postings) + sum(sys.getsizeof(t) + 56 + 2 * _ARRAY + d.nbytes + f.nbytes
                                               for t, (d, f) in postings.items())
            self.measured = n
        return self.measured

    @classmethod
    def build(cls, version: tuple[Any, ...], model: str | None, rows: Sequence[dict[str, Any]],
              analysis: lexical.Analysis = lexical.DEFAULT_ANALYSIS) -> ScopeCopy:
        ids = [str(r["id"]) for r in rows]
        texts = [_text(r) for r in rows]
        bm25 = lexical.BM25.build([lexical.tokens(t, analysis) for t in texts])
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
        episodes = [i for i, r in enumerate(rows) if _episodic(r)]
        created, stamps, digests = _order_columns(rows, texts)
        occurred = _occurred_column(rows)
        said = temporal.row_times(texts, occurred, stored=_stored(rows)) if occurred is not None else None
        return cls(version, model, ids, np.array([str(r.get("family")) for r in rows]), bm25, matrix, has,
                   np.array(episodes, dtype=np.int64), {}, created, stamps, digests, analysis, occurred, said)

    def extended(self, version: tuple[Any, ...], rows: Sequence[dict[str, Any]],
                 gone: Sequence[str] = ()) -> ScopeCopy | None:
        """This copy brought up to `version` by the ids of the rows deleted since its version (`gone`,
        search/scope_removed.cypher) and `rows`, the scope's rows written since (search/scope_delta.cypher, oldest
        first): equal to `build` over the whole scope, or None where the delta is more than deletions, new rows
        after the last one and rows this copy holds (whose text may have changed: an update; not their family or
        whether they are episodes) — the caller then reloads. A new copy: callers still ranking on this one keep
        it as it is. A held row's new text or occurred_at is resolved again for the time columns."""
        if self.created is None or self.stamps is None or self.digests is None or self.vectors is not None:
            return None
        if gone:
            return self._without(gone).extended(version, rows)
        last = (int(self.created[-1]), self.ids[-1]) if self.ids else None
        stamps, digests, occurred = self.stamps, self.digests, self.occurred
        fresh: list[dict[str, Any]] = []
        fresh_texts: list[str] = []
        changed: dict[int, list[str]] = {}
        retimed: dict[int, dict[str, Any]] = {}  # held rows whose text or occurred_at moved: their times again
        for r in rows:
            if r.get("created") is None or r.get("embedding") is not None:
                return None
            key, text = (int(r["created"]), str(r["id"])), _text(r)
            if last is None or key > last:
                if fresh and key <= (int(fresh[-1]["created"]), str(fresh[-1]["id"])):
                    return None  # not in the copy's order (Cypher orders them so; checked, not assumed)
                fresh.append(r)
                fresh_texts.append(text)
                continue
            p = self._position(key)
            if p is None:
                return None  # a row committed out of order: it belongs before rows the copy holds
            digest = _digest(r, text)
            if digest != int(digests[p]):  # an update: a new text (or title, or kind)
                if str(r.get("family")) != str(self.families[p]) or _episodic(r) != self._episode(p):
                    return None
                changed[p] = lexical.tokens(text, self.analysis)
                digests = digests.copy() if digests is self.digests else digests
                digests[p] = digest
                retimed[p] = r
            if occurred is not None and _occurred(r) != int(occurred[p]):
                occurred = occurred.copy() if occurred is self.occurred else occurred
                occurred[p] = _occurred(r)
                retimed[p] = r
            stamp = _stamp(r.get("updated"))
            if stamp != int(stamps[p]):
                stamps = stamps.copy() if stamps is self.stamps else stamps
                stamps[p] = stamp
        bm25 = self.bm25.replaced(changed) if changed else self.bm25
        said = self.said
        if retimed and occurred is not None and said is not None:
            at = sorted(retimed)
            again = [retimed[p] for p in at]
            said = said.replaced(at, temporal.row_times([_text(r) for r in again], occurred[at], rows=at,
                                                        stored=_stored(again)))
        if not fresh:
            return ScopeCopy(version, self.model, self.ids, self.families, bm25, None, self.has_vector,
                             self.episodes, self.masks, self.created, stamps, digests, self.analysis, occurred, said)
        n0 = len(self.ids)
        created, new_stamps, new_digests = _order_columns(fresh, fresh_texts)
        assert created is not None and new_stamps is not None and new_digests is not None  # all have created
        episodes = np.array([n0 + i for i, r in enumerate(fresh) if _episodic(r)], dtype=np.int64)
        new_occurred = _occurred_column(fresh)
        if occurred is not None and said is not None and new_occurred is not None:
            said = said.appended(temporal.row_times(fresh_texts, new_occurred, stored=_stored(fresh)), n0)
            occurred = np.concatenate((occurred, new_occurred))
        else:
            occurred = said = None
        return ScopeCopy(version, self.model, self.ids + [str(r["id"]) for r in fresh],
                         np.concatenate((self.families, np.array([str(r.get("family")) for r in fresh]))),
                         bm25.extended([lexical.tokens(t, self.analysis) for t in fresh_texts]), None,
                         np.concatenate((self.has_vector, np.zeros(len(fresh), dtype=bool))),
                         np.concatenate((self.episodes, episodes)), {}, np.concatenate((self.created, created)),
                         np.concatenate((stamps, new_stamps)), np.concatenate((digests, new_digests)), self.analysis,
                         occurred, said)

    def _without(self, gone: Sequence[str]) -> ScopeCopy:
        """This copy without the rows of these ids (ids it does not hold are passed over), later rows moved up."""
        drop = set(gone)
        at = np.array([i for i, x in enumerate(self.ids) if x in drop], dtype=np.int64)
        if not len(at):
            return self
        assert self.created is not None and self.stamps is not None and self.digests is not None
        ep = self.episodes[~np.isin(self.episodes, at)]
        return ScopeCopy(self.version, self.model, [x for x in self.ids if x not in drop],
                         np.delete(self.families, at), self.bm25.removed(at), None,
                         np.delete(self.has_vector, at), ep - np.searchsorted(at, ep), {},
                         np.delete(self.created, at), np.delete(self.stamps, at), np.delete(self.digests, at),
                         self.analysis, None if self.occurred is None else np.delete(self.occurred, at),
                         None if self.said is None else self.said.removed(at))

    def held(self, rows: Sequence[dict[str, Any]]) -> np.ndarray:
        """For each row (its id, created and updated), whether this copy holds it with that write stamp, so as it is:
        every write through the service moves updated_at. Vectorised: a delta's look-back window can hold tens of
        thousands of rows after a batch of saves, nearly all of them held."""
        n = len(rows)
        if not n or self.created is None or self.stamps is None or not self.ids:
            return np.zeros(n, dtype=bool)
        created = np.fromiter((_stamp(r.get("created")) for r in rows), dtype=np.int64, count=n)
        stamps = np.fromiter((_stamp(r.get("updated")) for r in rows), dtype=np.int64, count=n)
        lo, hi = np.searchsorted(self.created, created, "left"), np.searchsorted(self.created, created, "right")
        at = np.minimum(lo, len(self.ids) - 1)
        want = np.array([str(r["id"]) for r in rows], dtype=object)
        ids = np.array([self.ids[i] for i in at.tolist()], dtype=object)  # O(rows asked), not O(copy)
        out: np.ndarray = (hi - lo == 1) & (ids == want) & (self.stamps[at] == stamps)
        for i in np.flatnonzero(hi - lo > 1):  # several rows of the copy share this created_at: by id
            p = self._position((int(created[i]), str(want[i])))
            out[i] = p is not None and int(self.stamps[p]) == int(stamps[i])
        return out

    def holding(self, ids: Sequence[str]) -> list[str]:
        """Those of `ids` this copy holds."""
        if not ids:
            return []
        want = set(ids)
        return [x for x in self.ids if x in want]

    def _episode(self, p: int) -> bool:
        i = int(np.searchsorted(self.episodes, p))
        return i < len(self.episodes) and int(self.episodes[i]) == p

    def _position(self, key: tuple[int, str]) -> int | None:
        """Where the row of (created, id) `key` is in this copy, or None."""
        assert self.created is not None
        lo, hi = np.searchsorted(self.created, key[0], "left"), np.searchsorted(self.created, key[0], "right")
        for p in range(int(lo), int(hi)):
            if self.ids[p] == key[1]:
                return p
        return None

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

    def lexical_scores(self, query: str, params: IndexParams,
                       when: temporal.QueryTime | None = None) -> np.ndarray:
        """Every row's lexical score (BM25 plus its neighbouring episodes'), in copy order (`ids`); with the query's
        time (`when`), multiplied by params.time's rule (service/search/temporal.time_weights)."""
        bm = self.bm25.scores(lexical.tokens(query, self.analysis))
        scores = self._smooth(bm, params.neighbour_weight, np.ones(len(bm), dtype=bool), params.neighbour_weight_2)
        if when is not None and self.occurred is not None:
            w = temporal.time_weights(when, self.occurred, self.said, params.time)
            scores = scores if w is None else scores * w
        return self._occasions(scores, params.occasion_weight)

    def _occasions(self, scores: np.ndarray, weight: float) -> np.ndarray:
        """Each matching row (score > 0) plus `weight` × (the best score among the matching rows that occurred at
        the same instant − its own): a turn of a session whose other turns answer the query well rises toward them
        (passage evidence from the whole document, Callan 1994). A row alone at its occurred_at is unchanged, and so
        is a row the query does not match. The work is one pass over the matching rows' times, and a sort of them
        where two may be equal."""
        if not weight or self.occurred is None:
            return scores
        hit = np.flatnonzero(scores > 0)
        when = self.occurred[hit]
        if len(hit) < 2 or bool(np.all(when[1:] > when[:-1])):
            return scores  # rows saved without an occurred_at: each later than the one before, so none shared
        times, at = np.unique(when, return_inverse=True)
        if len(times) == len(hit):
            return scores  # every matching row has a time of its own: no occasion to share
        best = np.zeros(len(times))
        np.maximum.at(best, at, scores[hit])
        out = scores.copy()
        out[hit] += weight * (best[at] - scores[hit])
        return out

    def rank(self, query: str, qvec: Sequence[float] | None, families: Sequence[str], fetch: int,
             params: IndexParams, when: temporal.QueryTime | None = None) -> tuple[list[str], list[str]]:
        fam = self.family_mask(families)
        bm = self.lexical_scores(query, params, when)
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


def _text(r: dict[str, Any]) -> str:
    """What the lexical index reads of a row: its title (knowledge pages) and content."""
    return f"{r['title']}\n{r['content'] or ''}" if r.get("title") else str(r.get("content") or "")


def _episodic(r: dict[str, Any]) -> bool:
    return r.get("family") == "memory" and r.get("kind") == "episodic"


def _digest(r: dict[str, Any], text: str) -> int:
    """A row's indexed content as one int64 (a process-local hash: copies live in one process): family, kind, text
    and the times stored for its text (a `said` backfilled without a new text is an update too)."""
    said = r.get("said")
    return hash((str(r.get("family")), r.get("kind"), text, None if said is None else tuple(said)))


def _stamp(value: Any) -> int:
    """A time in epoch nanoseconds as an int, -1 for none (a row deleted while it was read)."""
    return -1 if value is None else int(value)


def _occurred(r: dict[str, Any]) -> int:
    """When a row happened, ns since the epoch: its occurred_at, else its created_at (-1 for neither)."""
    return _stamp(r.get("occurred") if r.get("occurred") is not None else r.get("created"))


def _stored(rows: Sequence[dict[str, Any]]) -> list[Any]:
    """Each row's `said` as it was stored when it was saved (temporal.said_of), or None: resolved here."""
    return [r.get("said") for r in rows]


def _occurred_column(rows: Sequence[dict[str, Any]]) -> np.ndarray | None:
    """The rows' occurred_at column (`_occurred`); None when a row has neither time."""
    if any(r.get("occurred") is None and r.get("created") is None for r in rows):
        return None
    return np.array([_occurred(r) for r in rows], dtype=np.int64)


def _order_columns(rows: Sequence[dict[str, Any]],
                   texts: Sequence[str]) -> tuple[np.ndarray | None, np.ndarray | None, np.ndarray | None]:
    """The copy's extension columns for `rows` (created, stamps, digests); all None when a row has no created_at."""
    if any(r.get("created") is None for r in rows):
        return None, None, None
    return (np.array([int(r["created"]) for r in rows], dtype=np.int64),
            np.array([_stamp(r.get("updated")) for r in rows], dtype=np.int64),
            np.array([_digest(r, t) for r, t in zip(rows, texts, strict=True)], dtype=np.int64))


class ScopeIndexes:
    """The process's copies (one per runtime, service/usecases/runtime.py), by scope id and embedding model
    (LRU-bounded): a process that searches one scope with and without its embedder (a benchmark, an operator's
    comparison) keeps both copies instead of reloading the scope at every switch. Every copy is built under the
    same lexical analysis."""

    def __init__(self, max_scopes: int = MAX_SCOPES, analysis: lexical.Analysis = lexical.DEFAULT_ANALYSIS,
                 max_bytes: int = MAX_BYTES) -> None:
        self._copies: OrderedDict[tuple[str, str | None], ScopeCopy] = OrderedDict()
        self._max = max_scopes
        self.max_bytes = max_bytes
        self.analysis = analysis
        # Scopes this process wrote to since their copy was last brought up to date (`behind`): a hint, not a
        # guarantee (another replica's writes are not in it), so the queries' version guard still decides.
        self._behind: set[str] = set()
        self.loads = 0  # how many times a scope was (re)loaded: for tests and the eval
        self.extends = 0  # how many times a copy was brought up to date by a delta instead

    def held(self, scope_id: str, model: str | None) -> ScopeCopy | None:
        """The copy this process holds of the scope, as it is, without reading the version: for a caller that checks
        the version in its own query (fragments/version_guard.cypher) and comes back through `copy` when it moved.
        None when it holds none, or when this process wrote to the scope since (`behind`): that guard would fail."""
        current = None if scope_id in self._behind else self._copies.get((scope_id, model))
        if current is not None:
            self._copies.move_to_end((scope_id, model))
        return current

    def behind(self, scope_id: str) -> None:
        """This process wrote to the scope: its copies are behind until `copy` next reads the version (an agent's
        save, then its context call, takes the version read at once instead of a guard that would fail)."""
        if any(key[0] == scope_id for key in self._copies):
            self._behind.add(scope_id)

    async def copy(self, on: Graph | AsyncManagedTransaction, scope_id: str, model: str | None) -> ScopeCopy:
        """The scope's current copy: one cheap version read; when the version moved, a delta (ScopeCopy.extended)
        or, where that cannot be applied exactly, a reload. `on` is the caller's transaction (search and context
        read the version in the transaction that then ranks, one round trip instead of a transaction of its own:
        ~8 ms at 100k on a loaded machine) or the Graph."""
        self._behind.discard(scope_id)  # before the read: a write after it marks the scope again
        row = await _run(on, recall_repo.scope_version, scope_id=scope_id)
        key = (scope_id, model)
        current = self._copies.get(key)
        if current is not None and current.version == _version(row, model):
            self._copies.move_to_end(key)
            return current
        # No lock: two searches racing on a stale copy both reload (same result); a lock would tie the
        # process-wide cache to one event loop.
        seen = _version(row, model)
        if current is not None and current.version[1::2] == seen[1::2] and current.created is not None:
            # Only writes and deletions moved (the same newest vector and model: version[1::2]): deletions first,
            # so that a row deleted between the two reads is gone from the copy rather than kept.
            was = current.version
            gone = [] if seen[2] == was[2] else current.holding(await _run(
                on, recall_repo.scope_removed, scope_id=scope_id, since=was[2] or _EPOCH, lookback=LOOKBACK_S))
            delta = [] if seen[0] == was[0] else await _unheld(on, current, scope_id, model, since=was[0] or _EPOCH)
            grown = (await asyncio.to_thread(_sized, current.extended, seen, delta, gone)
                     if len(delta) + len(gone) <= max(1000, MAX_DELTA_SHARE * len(current.ids)) else None)
            if grown is not None:
                self.extends += 1
                return self._keep(key, grown)
        version, rows = await _run(on, recall_repo.scope_corpus, scope_id=scope_id, model=model)
        built = await asyncio.to_thread(_sized, ScopeCopy.build, _version(version, model), model, rows, self.analysis)
        assert built is not None  # a build always makes a copy
        self.loads += 1
        return self._keep(key, built)

    def _keep(self, key: tuple[str, str | None], copy: ScopeCopy) -> ScopeCopy:
        self._copies[key] = copy
        self._copies.move_to_end(key)
        held = self.bytes()
        while len(self._copies) > 1 and (len(self._copies) > self._max or held > self.max_bytes):
            _, dropped = self._copies.popitem(last=False)
            held -= dropped.footprint()
        return copy

    def bytes(self) -> int:
        """What the copies kept hold together (ScopeCopy.footprint)."""
        return sum(c.footprint() for c in self._copies.values())

    def __len__(self) -> int:
        return len(self._copies)

    def clear(self) -> None:
        self._copies.clear()
        self._behind.clear()


def _sized(make: Callable[..., ScopeCopy | None], *args: Any) -> ScopeCopy | None:
    """`make(*args)`, its footprint counted in the same worker thread (≈ 10 ms at 100,000 rows)."""
    copy = make(*args)
    if copy is not None:
        copy.footprint()
    return copy


async def _run(on: Graph | AsyncManagedTransaction, fn: Callable[..., Awaitable[T]], **params: Any) -> T:
    """A repository read in the caller's transaction, or in a read transaction of its own on a Graph."""
    return await (on.read(fn, **params) if isinstance(on, Graph) else fn(on, **params))


async def _unheld(on: Graph | AsyncManagedTransaction, copy: ScopeCopy, scope_id: str, model: str | None,
                  since: Any) -> list[dict[str, Any]]:
    """The scope's rows written since `since` that `copy` does not hold as they are, oldest first: the rows written
    after it (search/scope_delta.cypher), and those of the look-back window before it (search/scope_window.cypher:
    ids and stamps) that the copy does not hold with their stamp, a write that committed late, read again by id
    (search/scope_rows.cypher). The window is read first, so that a row updated meanwhile comes with its new text."""
    window = await _run(on, recall_repo.scope_window, scope_id=scope_id, since=since, lookback=LOOKBACK_S)
    news = await _run(on, recall_repo.scope_delta, scope_id=scope_id, model=model, since=since)
    have = {str(r["id"]) for r in news}
    late = [str(r["id"]) for r, held in zip(window, copy.held(window), strict=True)
            if not held and str(r["id"]) not in have]
    if not late:
        return news
    again = await _run(on, recall_repo.scope_rows, scope_id=scope_id, model=model, ids=late)
    return sorted(news + again, key=lambda r: (_stamp(r["created"]), str(r["id"])))


def index_params(model: Any, params: Any) -> IndexParams:
    """The scope index's parameters for an embedder (or None) and a service.search.ranking.RankingParams."""
    from service.search.embedding import min_cosine  # late: embedding imports nothing from here, keep it that way

    cut = min_cosine(model)
    if params.min_similarity is not None:
        cut = 2.0 * params.min_similarity - 1.0
    return IndexParams(neighbour_weight=params.neighbour_weight, neighbour_weight_vec=params.neighbour_weight_vec,
                       min_cosine=cut, neighbour_weight_2=params.neighbour_weight_2,
                       occasion_weight=params.occasion_weight)


async def rank(indexes: ScopeIndexes, on: Graph | AsyncManagedTransaction | ScopeCopy, scope_id: str, *, query: str,
               qvec: list[float] | None, model: Any, families: Sequence[str], fetch: int,
               params: Any, when: temporal.QueryTime | None = None) -> tuple[list[str], list[str] | None]:
    """The scope index's two rankings for one search (ids, best first); vec is None without a query vector.
    `model` is the embedder (or None), `params` a service.search.ranking.RankingParams; `on` as for
    ScopeIndexes.copy, or a copy already in hand (ScopeIndexes.held: ranked as it is, nothing read);
    `when` the query's time (temporal.query_time(query, now)), None for none."""
    name = model.name if model is not None else None
    copy = on if isinstance(on, ScopeCopy) else await indexes.copy(on, scope_id, name)
    ft, vec = copy.rank(query, qvec, families, fetch, index_params(model, params), when)
    return ft, (vec if qvec is not None else None)
