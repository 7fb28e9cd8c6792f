"""`cognition.client`: the Python client of the Cognition service, sync and async, on httpx.

```python
from cognition.client import Cognition, RevisionMismatch

with Cognition("http://127.0.0.1:8080", api_key) as client:
    scope = client.scopes.create("acme", "alice", "main")
    mem = client.memories(scope.id).save(kind="preference", tier="role", content="prefers tea")
    try:
        client.memories(scope.id).update(mem.id, revision=mem.revision, content="prefers green tea")
    except RevisionMismatch as exc:
        print("moved on to", exc.current_revision)
```

Models are the service's own public schemas (`cognition.client.models`); errors are one class per error family,
mapped from the service's stable codes (`cognition.client.errors`); saves carry an Idempotency-Key made once and
reused across retries; 429 / 503 are retried honouring `Retry-After`. Constructing a client makes no request.
"""

from cognition.client import errors, models
from cognition.client.aio import AsyncCognition
from cognition.client.errors import (
    APIError,
    ArtifactRemoved,
    CognitionClientError,
    Conflict,
    ContentRejected,
    CrossScopeReference,
    DigestInProgress,
    ExportTooLarge,
    Forbidden,
    HasDependents,
    IdempotencyKeyReused,
    NotFound,
    PayloadTooLarge,
    PreconditionRequired,
    RateLimited,
    RevisionMismatch,
    ServerError,
    ServiceOwnedField,
    ServiceUnavailable,
    ThreatDetected,
    TransportError,
    Unauthenticated,
    ValidationFailed,
    WriteDenied,
)
from cognition.client.sync import Cognition

__all__ = [
    "APIError", "ArtifactRemoved", "AsyncCognition", "Cognition", "CognitionClientError", "Conflict", "ContentRejected",
    "CrossScopeReference", "DigestInProgress", "ExportTooLarge", "Forbidden", "HasDependents", "IdempotencyKeyReused",
    "NotFound", "PayloadTooLarge", "PreconditionRequired", "RateLimited", "RevisionMismatch", "ServerError",
    "ServiceOwnedField", "ServiceUnavailable", "ThreatDetected", "TransportError", "Unauthenticated",
    "ValidationFailed", "WriteDenied", "errors", "models",
]
