"""The one check that a scope copy (service/search/scope_index.ScopeCopy) brought up to date by a delta is the copy
a full build makes, bit for bit: used by the unit tests of the extension and by the integration tests against Neo4j."""

from __future__ import annotations

import numpy as np

from service.search.scope_index import ScopeCopy


def assert_same_copy(a: ScopeCopy, b: ScopeCopy) -> None:
    assert a.ids == b.ids and a.version == b.version
    assert np.array_equal(a.families, b.families) and np.array_equal(a.episodes, b.episodes)
    assert np.array_equal(a.has_vector, b.has_vector) and a.vectors is None and b.vectors is None
    for name in ("created", "stamps", "digests", "occurred"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert (a.said is None) == (b.said is None)
    if a.said is not None and b.said is not None:  # the intervals rows' texts name: the same, row by row
        for name in ("row", "lo", "hi"):
            assert np.array_equal(getattr(a.said, name), getattr(b.said, name)), f"said.{name}"
    x, y = a.bm25, b.bm25
    assert x.postings.keys() == y.postings.keys()
    for term, (docs, tfs) in x.postings.items():
        assert np.array_equal(docs, y.postings[term][0]) and np.array_equal(tfs, y.postings[term][1]), term
    assert x.avg_length == y.avg_length  # bit for bit: the same array's mean
    assert np.array_equal(x.lengths, y.lengths) and np.array_equal(x.norm, y.norm)
