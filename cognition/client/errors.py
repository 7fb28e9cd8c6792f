"""Typed errors: one class per error family, mapped from the service's stable `code` (then the HTTP status).

Every refusal of the service is JSON `{"code", "message", ...details}`; `APIError` carries all of it:
`code`, `message`, `status`, `details` (the rest of the body) and `field` where the service names one. Catch a
family (`NotFound`, `Conflict`, `ValidationFailed`, …) or a precise code (`RevisionMismatch`, `ThreatDetected`,
`HasDependents`, …); the precise classes subclass their family.
"""

from __future__ import annotations

from typing import Any

import httpx


class CognitionClientError(Exception):
    """Root of everything this client raises."""


class TransportError(CognitionClientError):
    """The service could not be reached, or the connection failed, after the retries this request allowed.
    For a write that is not a save (saves carry an Idempotency-Key), the write may or may not have happened."""

    def __init__(self, message: str, *, attempts: int) -> None:
        super().__init__(message)
        self.attempts = attempts


class APIError(CognitionClientError):
    """The service answered with a refusal. `code` is the service's stable, machine-readable code."""

    default_code = "error"

    def __init__(self, message: str, *, code: str | None = None, status: int = 0,
                 details: dict[str, Any] | None = None, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        self.status = status
        self.details: dict[str, Any] = details or {}
        self.headers: dict[str, str] = headers or {}

    @property
    def field(self) -> str | None:
        value = self.details.get("field")
        return value if isinstance(value, str) else None

    def __str__(self) -> str:
        return f"{self.status} {self.code}: {self.message}"


class ValidationFailed(APIError):
    """422: the request is malformed or names something invalid (`field` says where)."""

    default_code = "validation_error"


class ThreatDetected(ValidationFailed):
    """422 `threat_pattern_detected`: the threat scan refused the write; nothing was stored."""

    default_code = "threat_pattern_detected"

    @property
    def rule_id(self) -> str | None:
        return _str(self.details.get("rule_id"))

    @property
    def offset(self) -> int | None:
        value = self.details.get("offset")
        return value if isinstance(value, int) else None


class ContentRejected(ValidationFailed):
    """422 `content_quality_rejected`: an engine-state dump (PLAN_STATE:, …) refused by the quality gate."""

    default_code = "content_quality_rejected"

    @property
    def rule_id(self) -> str | None:
        return _str(self.details.get("rule_id"))


class ServiceOwnedField(ValidationFailed):
    """422 `service_owned_field`: the request tried to set metadata the service computes (`field`)."""

    default_code = "service_owned_field"


class IdempotencyKeyReused(ValidationFailed):
    """422 `idempotency_key_reused`: the Idempotency-Key was used before with another request body."""

    default_code = "idempotency_key_reused"


class ExportTooLarge(ValidationFailed):
    """422 `export_too_large`: the graph view has more nodes than `max_nodes` (`node_count`)."""

    default_code = "export_too_large"

    @property
    def node_count(self) -> int | None:
        value = self.details.get("node_count")
        return value if isinstance(value, int) else None


class Unauthenticated(APIError):
    """401: no key, an unknown key or a revoked key."""

    default_code = "unauthenticated"


class Forbidden(APIError):
    """403: the key's role may not do this (`forbidden_role`), or the scope's policy denies the write."""

    default_code = "forbidden"


class WriteDenied(Forbidden):
    """403 `write_denied`: the scope's write policy denies this write."""

    default_code = "write_denied"


class NotFound(APIError):
    """404: no such scope, record, pass or namespace — or one the key does not hold (never told apart)."""

    default_code = "not_found"


class ArtifactRemoved(NotFound):
    """404 `artifact_removed`: the record was removed; a tombstone remains."""

    default_code = "artifact_removed"


class Conflict(APIError):
    """409: the request conflicts with the stored state."""

    default_code = "conflict"


class HasDependents(Conflict):
    """409 `has_dependents`: active records depend on this one; delete with `detach=True` to leave them
    pointing at its tombstone."""

    default_code = "has_dependents"

    @property
    def dependents(self) -> list[str]:
        value = self.details.get("dependents")
        return [str(v) for v in value] if isinstance(value, list) else []


class DigestInProgress(Conflict):
    """409 `digest_in_progress`: another pass holds the partition (`pass_id`)."""

    default_code = "digest_in_progress"

    @property
    def pass_id(self) -> str | None:
        return _str(self.details.get("pass_id"))


class CrossScopeReference(Conflict):
    """409 `cross_scope_reference`: the database refused a relationship between two scopes."""

    default_code = "cross_scope_reference"


class RevisionMismatch(APIError):
    """412 `revision_mismatch`: the record moved on since the revision you sent; read it again."""

    default_code = "revision_mismatch"

    @property
    def current_revision(self) -> int | None:
        value = self.details.get("current_revision")
        return value if isinstance(value, int) else None


class PreconditionRequired(APIError):
    """428 `if_match_required`: updates need the revision you read."""

    default_code = "if_match_required"


class PayloadTooLarge(APIError):
    """413 `request_too_large`."""

    default_code = "request_too_large"


class RateLimited(APIError):
    """429: too many requests; `retry_after` seconds, when the service said."""

    default_code = "rate_limited"

    @property
    def retry_after(self) -> float | None:
        from cognition.client._retry import retry_after

        return retry_after(self.headers.get("retry-after"))


class ServiceUnavailable(APIError):
    """503 (`neo4j_unavailable`, `neo4j_busy`, …): retry shortly; `retry_after` when the service said."""

    default_code = "unavailable"

    @property
    def retry_after(self) -> float | None:
        from cognition.client._retry import retry_after

        return retry_after(self.headers.get("retry-after"))


class ServerError(APIError):
    """5xx other than 503: a bug on the service's side (`internal_error`)."""

    default_code = "internal_error"


BY_CODE: dict[str, type[APIError]] = {
    "threat_pattern_detected": ThreatDetected,
    "content_quality_rejected": ContentRejected,
    "service_owned_field": ServiceOwnedField,
    "idempotency_key_reused": IdempotencyKeyReused,
    "export_too_large": ExportTooLarge,
    "write_denied": WriteDenied,
    "artifact_removed": ArtifactRemoved,
    "has_dependents": HasDependents,
    "digest_in_progress": DigestInProgress,
    "cross_scope_reference": CrossScopeReference,
    "revision_mismatch": RevisionMismatch,
    "if_match_required": PreconditionRequired,
}
BY_STATUS: dict[int, type[APIError]] = {
    400: ValidationFailed, 401: Unauthenticated, 403: Forbidden, 404: NotFound, 409: Conflict, 412: RevisionMismatch,
    413: PayloadTooLarge, 422: ValidationFailed, 428: PreconditionRequired, 429: RateLimited, 503: ServiceUnavailable,
}


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def from_response(response: httpx.Response) -> APIError:
    """The typed error for a refusal: by code first, then by status."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if not isinstance(body, dict):
        body = {"message": response.text[:500] or response.reason_phrase}
    code = body.get("code") if isinstance(body.get("code"), str) else None
    message = str(body.get("message") or response.reason_phrase)
    details = {k: v for k, v in body.items() if k not in ("code", "message")}
    cls = BY_CODE.get(code or "") or BY_STATUS.get(response.status_code) or (
        ServerError if response.status_code >= 500 else APIError)
    return cls(message, code=code, status=response.status_code, details=details,
               headers={k.lower(): v for k, v in response.headers.items()})
