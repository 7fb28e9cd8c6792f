"""The scope index's lexical half (service/search/lexical.py, service/search/scope_index.py): tokens, per-scope
BM25, the neighbour-turn context and the fact that nothing outside a scope's own documents enters its scores."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from service.search import lexical
from service.search.scope_index import IndexParams, ScopeCopy


def test_english_is_stemmed_and_stop_words_dropped() -> None:
    assert lexical.tokens("What did Melanie paint? She painted sunrises.") == ["melani", "paint", "paint", "sunris"]
    assert lexical.tokens("What did she paint", lexical.Analysis(stem=False, stop=False)) == [
        "what", "did", "she", "paint"]


def test_chinese_is_bigrams_like_the_cjk_analyzer() -> None:
    assert lexical.tokens("深色模式") == ["深色", "色模", "模式"]
    assert lexical.tokens("茶 and 咖啡") == ["茶", "咖啡"]  # a one-character run is its own token


def test_bm25_matches_the_formula() -> None:
    docs = [["coffe", "morn"], ["tea"], ["coffe", "coffe", "tea", "cake"]]
    bm = lexical.BM25.build(docs)
    avg = 7 / 3
    idf = math.log(1 + (3 - 2 + 0.5) / (2 + 0.5))
    want = [idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * len(d) / avg)) for tf, d in ((1, docs[0]), (2, docs[2]))]
    got = bm.scores(["coffe"])
    assert got[1] == 0.0 and math.isclose(got[0], want[0]) and math.isclose(got[2], want[1])


words = st.sampled_from(["coffee", "tea", "cake", "paint", "sunrise", "咖啡", "茶", "深色模式", "run"])
texts = st.lists(words, min_size=1, max_size=6).map(" ".join)


@given(st.lists(texts, min_size=1, max_size=20), st.lists(texts, max_size=40), texts)
def test_a_scope_ranks_the_same_whatever_other_scopes_hold(mine: list[str], theirs: list[str], q: str) -> None:
    rows = [{"id": f"m{i}", "family": "memory", "kind": "fact", "content": t} for i, t in enumerate(mine)]
    alone = ScopeCopy.build((), None, rows).rank(q, None, ["memory"], 50, IndexParams())
    other = [{"id": f"o{i}", "family": "memory", "kind": "fact", "content": t} for i, t in enumerate(theirs)]
    ScopeCopy.build((), None, other)  # another scope's copy is its own object: nothing shared
    assert ScopeCopy.build((), None, rows).rank(q, None, ["memory"], 50, IndexParams()) == alone


def _neighbours(copy: ScopeCopy) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each row's previous and next episode, one and two away (-1 = none): the per-row arrays the scope index
    kept before it shifted its chain of episodes instead, derived from that chain as it derived them."""
    n = len(copy.ids)
    prev, nxt = np.full(n, -1), np.full(n, -1)
    ep = [int(i) for i in copy.episodes]
    for a, b in zip(ep, ep[1:], strict=False):
        nxt[a], prev[b] = b, a
    prev2 = np.where(prev >= 0, np.append(prev, -1)[prev], -1)
    next2 = np.where(nxt >= 0, np.append(nxt, -1)[nxt], -1)
    return prev, nxt, prev2, next2


def test_neighbouring_episodes_lend_their_scores() -> None:
    rows = [{"id": "q", "family": "memory", "kind": "episodic", "content": "Where did you go on holiday?"},
            {"id": "a", "family": "memory", "kind": "episodic", "content": "We went to Lisbon in May."},
            {"id": "f", "family": "memory", "kind": "fact", "content": "unrelated fact"}]
    copy = ScopeCopy.build((), None, rows)
    assert copy.rank("holiday", None, ["memory"], 10, IndexParams())[0] == ["q"]
    assert copy.rank("holiday", None, ["memory"], 10, IndexParams(neighbour_weight=0.5))[0] == ["q", "a"]
    prev, nxt, _, _ = _neighbours(copy)
    assert list(prev) == [-1, 0, -1] and list(nxt) == [1, -1, -1]  # facts are no episode's neighbours


def test_episodes_two_away_lend_a_smaller_share() -> None:
    texts = ["Did you ever go to Lisbon?", "Yes, in May.", "We loved the trams.", "unrelated", "also unrelated",
             "Lisbon again"]
    rows = [{"id": f"e{i}", "family": "memory", "kind": "episodic", "content": t} for i, t in enumerate(texts)]
    rows.insert(2, {"id": "f", "family": "memory", "kind": "fact", "content": "a fact between them"})
    copy = ScopeCopy.build((), None, rows)
    pos = {d: i for i, d in enumerate(copy.ids)}
    one = copy.lexical_scores("lisbon", IndexParams(neighbour_weight=0.5))
    two = copy.lexical_scores("lisbon", IndexParams(neighbour_weight=0.5, neighbour_weight_2=0.25))
    hit = float(copy.bm25.scores(["lisbon"])[pos["e0"]])
    assert two[pos["e1"]] == one[pos["e1"]] == 0.5 * hit  # next episode: half
    assert one[pos["e2"]] == 0.0 and two[pos["e2"]] == 0.25 * hit  # two episodes on (the fact is skipped)
    assert two[pos["f"]] == one[pos["f"]] == 0.0  # a fact is no episode's neighbour
    assert two[pos["e3"]] == 0.25 * float(copy.bm25.scores(["lisbon"])[pos["e5"]])  # e5 is two after e3
    _, _, prev2, next2 = _neighbours(copy)
    assert list(prev2) == [-1, -1, -1, 0, 1, 3, 4] and list(next2) == [3, 4, -1, 5, 6, -1, -1]


def test_vectors_are_ranked_exactly_with_the_models_cut() -> None:
    rows = [{"id": f"d{i}", "family": "memory", "kind": "fact", "content": "x", "embedding": v}
            for i, v in enumerate([[1.0, 0.0], [0.8, 0.6], [0.0, 1.0], None])]
    copy = ScopeCopy.build((), "m", rows)
    _, vec = copy.rank("x", [1.0, 0.0], ["memory"], 10, IndexParams(min_cosine=0.5))
    assert vec == ["d0", "d1"]
    _, vec = copy.rank("x", [1.0, 0.0], ["knowledge"], 10, IndexParams(min_cosine=0.5))
    assert vec == []
    assert copy.vectors is not None and np.allclose(np.linalg.norm(copy.vectors[:3], axis=1), 1.0)


# The plain formulas the scope index computed before its speed-ups (issue 14's bench at 100k rows): the fast
# paths must give the very same floats and the very same order.
def _plain_smooth(copy: ScopeCopy, scores: np.ndarray, weight: float, valid: np.ndarray,
                  weight_2: float) -> np.ndarray:
    prev, nxt, prev2, next2 = _neighbours(copy)
    base = np.where(valid, scores, 0.0)
    pad = np.append(base, 0.0)
    lent = weight * (pad[prev] + pad[nxt])
    if weight_2:
        lent = lent + weight_2 * (pad[prev2] + pad[next2])
    return np.where(valid, scores + lent, scores)


def _plain_top(scores: np.ndarray, mask: np.ndarray, fetch: int) -> list[int]:
    cand = np.flatnonzero(mask)
    order = np.lexsort((cand, -scores[cand]))
    return [int(i) for i in cand[order[:fetch]]]


_rows = st.lists(st.tuples(st.sampled_from(["episodic", "fact", "preference"]),
                           st.sampled_from(["memory", "knowledge"]),
                           st.lists(st.sampled_from(["lisbon", "tram", "may", "paint", "sunrise", "cat"]),
                                    max_size=6)), min_size=1, max_size=60)


@given(_rows, st.sampled_from([0.0, 0.5]), st.sampled_from([0.0, 0.25]), st.integers(1, 12),
       st.lists(st.sampled_from(["lisbon", "tram", "paint", "dog"]), min_size=1, max_size=3),
       st.lists(st.booleans(), min_size=60, max_size=60))
def test_the_fast_paths_give_the_plain_formulas_floats_and_order(rows: list[tuple[str, str, list[str]]],
                                                                w: float, w2: float, fetch: int,
                                                                query: list[str], valid_bits: list[bool]) -> None:
    copy = ScopeCopy.build((), None, [{"id": f"r{i}", "kind": k, "family": f, "content": " ".join(words)}
                                      for i, (k, f, words) in enumerate(rows)])
    n = len(rows)
    bm = copy.bm25.scores(lexical.tokens(" ".join(query)))
    lengths = copy.bm25.lengths
    norm = copy.bm25.k1 * (1.0 - copy.bm25.b + copy.bm25.b * lengths / (copy.bm25.avg_length or 1.0))
    assert np.array_equal(copy.bm25.norm, norm)
    for valid in (np.ones(n, dtype=bool), np.array(valid_bits[:n])):
        fast = copy._smooth(bm, w, valid, w2)
        assert np.array_equal(fast, _plain_smooth(copy, bm, w, valid, w2) if (w or w2) else bm)
    fam = copy.family_mask(["memory"])
    assert np.array_equal(fam, np.array([f == "memory" for _, f, _ in rows]))
    smoothed = copy._smooth(bm, w, np.ones(n, dtype=bool), w2)
    ties = np.round(smoothed, 1)  # many equal scores: the tie-break by position must hold too
    for scores in (smoothed, ties):
        mask = fam & (scores > 0)
        assert copy._top(scores, mask, fetch) == _plain_top(scores, mask, fetch)


@given(st.lists(st.integers(0, 8), min_size=1, max_size=300), st.integers(1, 40), st.integers(0, 2**32 - 1))
def test_the_top_k_cut_keeps_the_plain_sorts_answer(levels: list[int], fetch: int, seed: int) -> None:
    rnd = np.random.default_rng(seed)
    scores = np.array(levels, dtype=np.float64) * 0.37  # few distinct values: ties at the cut are the rule
    mask = rnd.random(len(levels)) < 0.8
    assert ScopeCopy._top(scores, mask, fetch) == _plain_top(scores, mask, fetch)
