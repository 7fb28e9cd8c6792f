"""cognition.client's pure parts: Retry-After parsing, which answers and failures are retried, and the mapping
from the service's error JSON to typed exceptions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx
import pytest

from cognition.client import errors
from cognition.client._calls import build, memories
from cognition.client._retry import RetryPolicy, error_wait, response_wait, retry_after
from cognition.client.models import MemoryCreate

NOW = datetime(2026, 12, 1, 12, 0, 0, tzinfo=UTC)


def test_retry_after_reads_seconds_and_http_dates() -> None:
    assert retry_after("7") == 7.0
    assert retry_after(format_datetime(NOW + timedelta(seconds=30), usegmt=True), now=NOW) == 30.0
    assert retry_after(format_datetime(NOW - timedelta(seconds=30), usegmt=True), now=NOW) == 0.0
    assert retry_after(None) is None and retry_after("soon") is None


def _resp(status: int, retry: str | None = None) -> httpx.Response:
    return httpx.Response(status, headers={"Retry-After": retry} if retry else {})


def test_which_answers_are_retried() -> None:
    p = RetryPolicy(max_retries=2, backoff=0.5, max_backoff=1.0, max_retry_wait=10)
    for status in (429, 503):
        assert response_wait(p, 0, _resp(status, "3"), safe=False) == 3.0  # the service's word
        wait = response_wait(p, 0, _resp(status), safe=False)
        assert wait is not None and 0 <= wait <= 0.5  # backoff with jitter
        assert response_wait(p, 2, _resp(status), safe=True) is None  # retries used up
        assert response_wait(p, 0, _resp(status, "11"), safe=True) is None  # longer than max_retry_wait
    assert response_wait(p, 0, _resp(502), safe=True) is not None
    assert response_wait(p, 0, _resp(502), safe=False) is None
    for status in (400, 404, 409, 412, 422, 500):
        assert response_wait(p, 0, _resp(status), safe=True) is None


def test_which_failures_are_retried() -> None:
    p = RetryPolicy(max_retries=1)
    never_sent = httpx.ConnectError("refused")
    lost_answer = httpx.RemoteProtocolError("Server disconnected without sending a response.")
    assert error_wait(p, 0, never_sent, safe=False) is not None
    assert error_wait(p, 0, lost_answer, safe=True) is not None
    assert error_wait(p, 0, lost_answer, safe=False) is None  # e.g. an update: it may have been applied
    assert error_wait(p, 1, never_sent, safe=True) is None


def test_a_save_call_has_one_idempotency_key_and_is_safe_an_update_is_not() -> None:
    calls = memories("s1")
    save = calls.save(None, {"kind": "fact", "tier": "agent", "content": "x"}, None)
    assert save.safe and save.headers["Idempotency-Key"].startswith("cog-")
    assert calls.save(None, {"kind": "fact", "tier": "agent", "content": "x"}, "mine").headers["Idempotency-Key"] \
        == "mine"
    update = calls.update("id/../x", 3, None, {"content": "y"})
    assert not update.safe and update.headers["If-Match"] == '"3"' and update.path.endswith("/id%2F..%2Fx")
    assert update.json == {"content": "y"}  # only what changed


def test_writes_are_validated_with_the_service_schema() -> None:
    with pytest.raises(errors.ServiceOwnedField) as owned:
        build(MemoryCreate, None, {"kind": "fact", "tier": "agent", "content": "x", "status": "active"})
    assert owned.value.field == "status"
    with pytest.raises(errors.ValidationFailed) as bad:
        build(MemoryCreate, None, {"kind": "nonsense", "tier": "agent", "content": "x"})
    assert bad.value.field == "kind"


@pytest.mark.parametrize(("status", "body", "cls", "attr", "value"), [
    (412, {"code": "revision_mismatch", "message": "m", "current_revision": 4}, errors.RevisionMismatch,
     "current_revision", 4),
    (422, {"code": "threat_pattern_detected", "message": "m", "rule_id": "en.override", "field": "content",
           "offset": 0}, errors.ThreatDetected, "rule_id", "en.override"),
    (422, {"code": "content_quality_rejected", "message": "m", "rule_id": "plan_state"}, errors.ContentRejected,
     "rule_id", "plan_state"),
    (409, {"code": "has_dependents", "message": "m", "dependents": ["a", "b"]}, errors.HasDependents,
     "dependents", ["a", "b"]),
    (409, {"code": "digest_in_progress", "message": "m", "pass_id": "p1"}, errors.DigestInProgress, "pass_id", "p1"),
    (422, {"code": "export_too_large", "message": "m", "node_count": 9}, errors.ExportTooLarge, "node_count", 9),
    (404, {"code": "scope_not_found", "message": "m"}, errors.NotFound, "code", "scope_not_found"),
    (404, {"code": "artifact_removed", "message": "m"}, errors.ArtifactRemoved, "status", 404),
    (401, {"code": "unauthenticated", "message": "m"}, errors.Unauthenticated, "code", "unauthenticated"),
    (403, {"code": "forbidden_role", "message": "m"}, errors.Forbidden, "code", "forbidden_role"),
    (403, {"code": "write_denied", "message": "m"}, errors.WriteDenied, "code", "write_denied"),
    (409, {"code": "scope_exists", "message": "m"}, errors.Conflict, "code", "scope_exists"),
    (428, {"code": "if_match_required", "message": "m"}, errors.PreconditionRequired, "status", 428),
    (422, {"code": "malformed_json", "message": "m", "field": "body"}, errors.ValidationFailed, "field", "body"),
    (503, {"code": "neo4j_unavailable", "message": "m"}, errors.ServiceUnavailable, "code", "neo4j_unavailable"),
    (500, {"code": "internal_error", "message": "m"}, errors.ServerError, "code", "internal_error"),
])
def test_error_json_maps_to_typed_exceptions(status: int, body: dict[str, object], cls: type[errors.APIError],
                                             attr: str, value: object) -> None:
    exc = errors.from_response(httpx.Response(status, json=body))
    assert type(exc) is cls and isinstance(exc, errors.APIError) and exc.status == status
    assert getattr(exc, attr) == value and exc.message == "m"


def test_an_answer_that_is_not_json_still_maps_by_status() -> None:
    exc = errors.from_response(httpx.Response(502, text="<html>bad gateway</html>"))
    assert isinstance(exc, errors.ServerError) and exc.status == 502 and "bad gateway" in exc.message
    limited = errors.from_response(httpx.Response(429, headers={"Retry-After": "12"}, text=""))
    assert isinstance(limited, errors.RateLimited) and limited.retry_after == 12.0
