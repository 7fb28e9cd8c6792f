"""Lexical matching for the in-process scope index (service/search/scope_index.py): tokens and Okapi BM25 with
*per-scope* statistics.

Tokens. Latin text: lower-cased `[a-z0-9]+` runs, English stop words dropped, each word reduced by the
Snowball English (Porter 2) stemmer, so "painted", "painting" and "paints" meet. CJK text: overlapping bigrams
of each run of Han/Kana/Hangul characters (a one-character run is its own token) — what Lucene's `cjk`
analyzer, used by the `artifact_text` index, does — so Chinese matches exactly as the full-text index
matched it. One function tokenizes stored texts and queries alike.

BM25 (Robertson & Zaragoza 2009), k1 = 1.2, b = 0.75, idf = ln(1 + (N − df + ½) / (df + ½)), where N, df
and the average length are those of ONE scope. Lucene's index-wide statistics made a scope's ranking depend
on what every other tenant stored; these cannot.
"""

from __future__ import annotations

import math
import re
import threading
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import snowballstemmer

_LATIN = r"[a-z0-9]+"
_CJK = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+"
_TOKEN = re.compile(f"{_LATIN}|{_CJK}")

# A short English stop list (Lucene's EnglishAnalyzer set plus question words and pronouns): a query such as
# "What did she say about it?" should rank by its content words.
_STOP_TEXT = """
a an and are as at be but by for if in into is it no not of on or such that the their then there these they
this to was will with what when where which who whom whose why how do does did done i me my mine you your
yours he him his she her hers we us our ours them its am been being have has had having would could should
can may might must shall s t d ll m re ve just so than too very also about from up down out over under again
further once here all any both each few more most other some own same only nor
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())

# A Snowball stemmer keeps the word it works on in itself, so one shared by threads (the scope index is built off
# the event loop, several at once) corrupts its state (IndexError seen in the soak): one per thread.
_local = threading.local()


@dataclass(frozen=True, slots=True)
class Analysis:
    """How Latin words are analysed (both on by default; the evaluation measures each off)."""

    stem: bool = True
    stop: bool = True


DEFAULT_ANALYSIS = Analysis()  # what the service runs; a scope index is built under one analysis (ScopeIndexes)


@lru_cache(maxsize=200_000)
def _stem(word: str) -> str:
    stemmer = getattr(_local, "stemmer", None)
    if stemmer is None:
        stemmer = _local.stemmer = snowballstemmer.stemmer("english")
    return str(stemmer.stemWord(word))


def tokens(text: str, analysis: Analysis = DEFAULT_ANALYSIS) -> list[str]:
    """The lexical tokens of a text (stored or query)."""
    stem, stop = analysis.stem, analysis.stop
    out: list[str] = []
    for run in _TOKEN.findall(text.lower()):
        if run[0] < "\u0080":
            if stop and run in STOP_WORDS:
                continue
            out.append(_stem(run) if stem and not run.isdigit() else run)
        elif len(run) == 1:
            out.append(run)
        else:
            out.extend(run[i:i + 2] for i in range(len(run) - 1))
    return out


@dataclass(slots=True)
class BM25:
    """Okapi BM25 over one scope's documents (token lists, in index order)."""

    k1: float = 1.2
    b: float = 0.75
    postings: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)  # term -> (docs, tfs)
    lengths: np.ndarray = field(default_factory=lambda: np.zeros(0))
    avg_length: float = 0.0
    norm: np.ndarray = field(default_factory=lambda: np.zeros(0))  # k1·(1 − b + b·len/avg) per document

    @classmethod
    def build(cls, docs: Sequence[Sequence[str]], *, k1: float = 1.2, b: float = 0.75) -> BM25:
        acc: dict[str, tuple[list[int], list[int]]] = {}
        for i, doc in enumerate(docs):
            for term, tf in Counter(doc).items():
                entry = acc.setdefault(term, ([], []))
                entry[0].append(i)
                entry[1].append(tf)
        lengths = np.array([len(d) for d in docs], dtype=np.float64)
        postings = {t: (np.array(d, dtype=np.int64), np.array(f, dtype=np.float64)) for t, (d, f) in acc.items()}
        return cls.of(postings, lengths, k1=k1, b=b)

    @classmethod
    def of(cls, postings: dict[str, tuple[np.ndarray, np.ndarray]], lengths: np.ndarray, *, k1: float = 1.2,
           b: float = 0.75) -> BM25:
        """The index of these postings and document lengths: its average length and norms computed from them.
        Every way of making an index ends here, so the same lengths give the same floats."""
        avg = float(lengths.mean()) if len(lengths) else 0.0
        # Once per copy, not once per query (~0.3 ms at 100k documents).
        norm = k1 * (1.0 - b + b * lengths / (avg or 1.0))
        return cls(k1, b, postings, lengths, avg, norm)

    def _columns(self) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
        """Every posting at once: (terms, postings per term, their documents, their term frequencies)."""
        terms = list(self.postings)
        counts = np.fromiter((len(self.postings[t][0]) for t in terms), dtype=np.int64, count=len(terms))
        if not terms:
            return terms, counts, np.zeros(0, dtype=np.int64), np.zeros(0)
        return (terms, counts, np.concatenate([self.postings[t][0] for t in terms]),
                np.concatenate([self.postings[t][1] for t in terms]))

    def extended(self, docs: Sequence[Sequence[str]]) -> BM25:
        """This index with `docs` appended after its documents: the postings, lengths, average length and norms
        `build` makes over all of them (the same arrays, so the same floats). A new index; this one is unchanged."""
        first = self.size
        acc: dict[str, tuple[list[int], list[int]]] = {}
        for i, doc in enumerate(docs, start=first):
            for term, tf in Counter(doc).items():
                entry = acc.setdefault(term, ([], []))
                entry[0].append(i)
                entry[1].append(tf)
        postings = dict(self.postings)
        for term, (d, f) in acc.items():
            new = (np.array(d, dtype=np.int64), np.array(f, dtype=np.float64))
            old = postings.get(term)
            postings[term] = new if old is None else (np.concatenate((old[0], new[0])),
                                                      np.concatenate((old[1], new[1])))
        lengths = np.concatenate((self.lengths, np.array([len(d) for d in docs], dtype=np.float64)))
        return BM25.of(postings, lengths, k1=self.k1, b=self.b)

    def replaced(self, docs: Mapping[int, Sequence[str]]) -> BM25:
        """This index with the documents at these positions given new tokens: the postings, lengths, average length
        and norms `build` makes over the list with them replaced (each posting list stays in document order; a term
        no document holds any more is gone). A new index; this one is unchanged."""
        at = np.array(sorted(docs), dtype=np.int64)
        added: dict[str, tuple[list[int], list[int]]] = {}
        for p in sorted(docs):
            for term, tf in Counter(docs[p]).items():
                entry = added.setdefault(term, ([], []))
                entry[0].append(p)
                entry[1].append(tf)
        # The terms the replaced documents held: one pass over every posting at once, not one search per term.
        terms, counts, flat, _ = self._columns()
        held_at = np.flatnonzero(flat == at[0] if len(at) == 1 else np.isin(flat, at))
        owners = np.searchsorted(np.cumsum(counts), held_at, side="right")  # the term of each of those postings
        touched = {terms[i] for i in np.unique(owners)} | (added.keys() & self.postings.keys())
        postings = dict(self.postings)
        for term in touched:
            d, f = self.postings[term]
            hit = np.searchsorted(d, at)
            held = d[np.minimum(hit, len(d) - 1)] == at
            add = added.pop(term, None)
            keep = np.ones(len(d), dtype=bool)
            keep[hit[held]] = False
            d2, f2 = d[keep], f[keep]
            if add is not None:
                d2 = np.concatenate((d2, np.array(add[0], dtype=np.int64)))
                f2 = np.concatenate((f2, np.array(add[1], dtype=np.float64)))
                order = np.argsort(d2, kind="stable")
                d2, f2 = d2[order], f2[order]
            if len(d2):
                postings[term] = (d2, f2)
            else:
                del postings[term]
        for term, (dl, fl) in added.items():  # terms the scope did not hold before
            postings[term] = (np.array(dl, dtype=np.int64), np.array(fl, dtype=np.float64))
        lengths = self.lengths.copy()
        for p, doc in docs.items():
            lengths[p] = float(len(doc))
        return BM25.of(postings, lengths, k1=self.k1, b=self.b)

    def removed(self, gone: np.ndarray) -> BM25:
        """This index without the documents at the sorted positions `gone`, the later ones moved up: the postings,
        lengths, average length and norms `build` makes over the list without them (a term no document holds any
        more is gone). One pass over every posting at once. A new index; this one is unchanged."""
        terms, counts, docs, tfs = self._columns()
        keep = ~np.isin(docs, gone)
        owners = np.repeat(np.arange(len(terms)), counts)[keep]
        docs, tfs = (docs - np.searchsorted(gone, docs))[keep], tfs[keep]
        left = np.bincount(owners, minlength=len(terms))
        cuts = np.cumsum(left)[:-1]
        postings = {t: (d, f) for t, d, f, n in zip(terms, np.split(docs, cuts), np.split(tfs, cuts), left,
                                                    strict=True) if n} if terms else {}
        lengths = np.delete(self.lengths, gone)
        return BM25.of(postings, lengths, k1=self.k1, b=self.b)

    @property
    def size(self) -> int:
        return int(self.lengths.shape[0])

    def idf(self, term: str) -> float:
        df = len(self.postings[term][0]) if term in self.postings else 0
        return math.log(1.0 + (self.size - df + 0.5) / (df + 0.5))

    def scores(self, query: Sequence[str]) -> np.ndarray:
        """Every document's score for the query's tokens (0 where none matches); a repeated query term
        counts once per occurrence, as Lucene's boolean query does."""
        out = np.zeros(self.size)
        if not self.size:
            return out
        norm = self.norm
        for term, qtf in Counter(query).items():
            hit = self.postings.get(term)
            if hit is None:
                continue
            docs, tfs = hit
            out[docs] += qtf * self.idf(term) * tfs * (self.k1 + 1.0) / (tfs + norm[docs])
        return out
