"""RecallQualityOK's Python mirror (service/usecases/context.recall_quality_ok): active, not stale, not working state,
valid at the instant asked about, and never conflicted without a closed validity. (tests/integration/test_context.py
holds the Cypher predicate to the same answers.)"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

from graph.model import Artifact, Family, Status
from service.usecases.context import recall_quality_ok

NOW = datetime(2025, 1, 1, tzinfo=UTC)
DAY = timedelta(days=1)


def _art(**kw: object) -> Artifact:
    base = {"id": "x", "scope_id": "s", "family": Family.memory, "status": Status.active, "created_at": NOW,
            "updated_at": NOW, "accessed_at": NOW}
    return Artifact.model_validate({**base, **kw})


def test_truth_table_on_artifacts() -> None:
    for family, status, stale, conflicted in itertools.product(Family, Status, (False, True), (False, True)):
        ok = recall_quality_ok(_art(family=family, status=status, stale=stale, conflicted=conflicted), NOW)
        assert ok == (status is Status.active and family is not Family.working_state
                      and not stale and not conflicted), (family, status, stale, conflicted)


def test_validity_decides_at_the_instant_asked_about() -> None:
    closed = _art(valid_from=NOW - 10 * DAY, valid_until=NOW, conflicted=True)
    assert recall_quality_ok(closed, NOW - DAY)          # superseded later: good before that
    assert not recall_quality_ok(closed, NOW)            # valid_until is exclusive
    assert not recall_quality_ok(closed, NOW + DAY)
    later = _art(valid_from=NOW + DAY)
    assert not recall_quality_ok(later, NOW) and recall_quality_ok(later, NOW + DAY)
    scheduled = _art(valid_from=NOW - DAY, valid_until=NOW + DAY, conflicted=True)  # replaced from tomorrow on
    assert recall_quality_ok(scheduled, NOW)


def test_maps_with_missing_flags() -> None:
    assert recall_quality_ok({"status": "active", "family": "memory"}, NOW)
    assert not recall_quality_ok({"status": "active", "family": "memory", "stale": True}, NOW)
    assert not recall_quality_ok({"status": "active", "family": "memory", "conflicted": True}, NOW)
    assert not recall_quality_ok({"status": "pending", "family": "skill"}, NOW)
    assert not recall_quality_ok({"family": "memory"}, NOW)  # no status is not active
