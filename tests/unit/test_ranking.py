"""Properties of the hybrid ranking's fusion (service/search/ranking.py) and of the fragment composer."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cypher
from service.search import embedding
from service.search.ranking import DEFAULT, RankingParams, compose, fuse, fused_score

_ids = st.lists(st.text(alphabet="abcdefgh", min_size=1, max_size=3), unique=True, max_size=12)
_ret = st.floats(min_value=0.0, max_value=1.0)


def test_fusion_is_the_documented_formula() -> None:
    assert fused_score(1, None, 0.0) == pytest.approx(1 / 61)
    assert fused_score(1, 3, 0.0) == pytest.approx(1 / 61 + 1 / 63)
    assert fused_score(None, None, 1.0) == 0.0
    assert fused_score(1, 1, 1.0) == pytest.approx((2 / 61) * 1.1)


@given(_ids, _ids, st.dictionaries(st.text(alphabet="abcdefgh", min_size=1, max_size=3), _ret))
@settings(max_examples=300)
def test_fuse_orders_by_score_then_id_and_keeps_every_candidate(ft: list[str], vec: list[str],
                                                                retention: dict[str, float]) -> None:
    out = fuse(ft, vec, retention)
    assert {d for d, _ in out} == set(ft) | set(vec)
    keys = [(-s, d) for d, s in out]
    assert keys == sorted(keys)


@given(_ids, _ret)
@settings(max_examples=200)
def test_one_ranking_with_equal_retention_keeps_its_order(ft: list[str], r: float) -> None:
    """Without vectors (no embedder) and with equal retention, hybrid ranking is full-text ranking."""
    assert [d for d, _ in fuse(ft, [], {d: r for d in ft})] == ft


@given(_ids.filter(lambda x: len(x) >= 2), _ret)
def test_found_by_both_beats_found_by_one_at_the_same_rank(ids: list[str], r: float) -> None:
    both, only = ids[0], ids[1]
    ret = {both: r, only: r}
    scores = dict(fuse([both, only], [both], ret))
    assert scores[both] > scores[only]


@given(st.integers(1, 500), st.integers(1, 500), _ret, _ret)
def test_better_rank_or_more_retention_never_lowers_the_score(r1: int, r2: int, a: float, b: float) -> None:
    lo, hi = sorted((r1, r2))
    assert fused_score(lo, None, a) >= fused_score(hi, None, a)
    assert fused_score(lo, hi, min(a, b)) <= fused_score(lo, hi, max(a, b))


def test_retention_only_breaks_near_ties() -> None:
    """The boost is bounded: full retention cannot lift a row more than a few ranks near the top."""
    assert fused_score(1, None, 0.0) > fused_score(8, None, 1.0)
    assert fused_score(2, None, 0.0) < fused_score(3, None, 1.0)


def test_fetch_sizes() -> None:
    assert DEFAULT.fetch(5) == 30 and DEFAULT.fetch(50) == 200 and DEFAULT.fetch(10, filtered=True) == 200
    assert RankingParams(fetch_cap=100).fetch(1000) == 100


# ---- the composer -----------------------------------------------------------------------------------------

def test_compose_substitutes_every_fragment_once_and_leaves_comments_alone() -> None:
    text = compose("context/assemble")
    code = "\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith("//"))
    assert "{{" not in code
    comments = [ln for ln in cypher.load("context/assemble").splitlines() if ln.lstrip().startswith("//")]
    assert comments == [ln for ln in text.splitlines() if ln.lstrip().startswith("//")]  # untouched
    predicate = cypher.fragment("RECALL_QUALITY_OK")
    assert predicate.startswith("(a.status = 'active'")
    # nine arms + the re-check under the lock (the fast query asks it in every list it reads: test_context.py)
    reference = compose("context/assemble_reference")
    assert reference.count(predicate) == 10
    assert code.count(predicate) > reference.count(predicate)
    assert compose("search/hybrid").count("db.index.fulltext.queryNodes") == 1
    assert compose("context/assemble") is text  # cached: substituted once


def test_explicit_search_never_asks_recall_quality_ok() -> None:
    predicate = cypher.fragment("RECALL_QUALITY_OK")
    assert predicate not in compose("search/hybrid")
    assert "RECALL_QUALITY_OK" not in compose("search/hybrid").replace("RecallQualityOK", "")


def test_unknown_fragment_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="unknown Cypher fragment"):
        cypher._substitute("MATCH (a) WHERE {{NO_SUCH_THING}} RETURN a")
    assert cypher._substitute("// {{NO_SUCH_THING}} in a comment") == "// {{NO_SUCH_THING}} in a comment"


# ---- embedder plumbing ------------------------------------------------------------------------------------

class _Fake:
    name = "fake"
    dimensions = 3

    def embed(self, texts: list[str]) -> list[list[float]]:
        return [[float(len(t)), 0.0, 1.0] for t in texts]


def test_make_embedder_and_text_of() -> None:
    assert embedding.make_embedder(None) is None and embedding.make_embedder(" None ") is None
    with pytest.raises(ValueError, match="known embedders"):
        embedding.make_embedder("bert-large")
    assert embedding.text_of({"title": "T", "content": "body"}) == "T\nbody"
    assert embedding.text_of({"content": "body"}) == "body"
    assert isinstance(_Fake(), embedding.Embedder)
