"""RecallQualityOK's Python mirror (service/usecases/context.recall_quality_ok): active, not stale, not conflicted, not
working state. (tests/integration/test_context.py holds the Cypher predicate to the same answers.)"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime

from graph.model import Artifact, Family, Status
from service.usecases.context import recall_quality_ok

NOW = datetime(2025, 1, 1, tzinfo=UTC)


def _art(**kw: object) -> Artifact:
    base = {"id": "x", "scope_id": "s", "family": Family.memory, "status": Status.active, "created_at": NOW,
            "updated_at": NOW, "accessed_at": NOW}
    return Artifact.model_validate({**base, **kw})


def test_truth_table_on_artifacts() -> None:
    for family, status, stale, conflicted in itertools.product(Family, Status, (False, True), (False, True)):
        ok = recall_quality_ok(_art(family=family, status=status, stale=stale, conflicted=conflicted))
        assert ok == (status is Status.active and family is not Family.working_state
                      and not stale and not conflicted), (family, status, stale, conflicted)


def test_maps_with_missing_flags() -> None:
    assert recall_quality_ok({"status": "active", "family": "memory"})
    assert not recall_quality_ok({"status": "active", "family": "memory", "stale": True})
    assert not recall_quality_ok({"status": "pending", "family": "skill"})
    assert not recall_quality_ok({"family": "memory"})  # no status is not active
