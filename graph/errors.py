"""One exception root for the domain; Neo4j errors are translated here, at the graph boundary."""

from __future__ import annotations

import re
from typing import Any

from neo4j.exceptions import ConstraintError, Neo4jError, ServiceUnavailable, SessionExpired


class CognitionError(Exception):
    """Root of every domain error. `code` is stable and machine-readable; the class says what kind of refusal it
    is (each adapter answers a kind its own way: service/wire.py maps them to HTTP statuses). A plain
    CognitionError is a failure of the service itself."""

    code = "internal_error"

    def __init__(self, message: str, *, code: str | None = None, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        self.details = details or {}


class NotFound(CognitionError):
    code = "not_found"


class Conflict(CognitionError):
    code = "conflict"


class Invalid(CognitionError):
    code = "invalid"


class PreconditionFailed(CognitionError):
    """The record moved on since the revision the caller read."""

    code = "revision_mismatch"


class Forbidden(CognitionError):
    code = "forbidden"


class Unavailable(CognitionError):
    """Neo4j is away or busy; the operation can be retried as it is."""

    code = "neo4j_unavailable"


# Codes the database's own before-commit trigger puts at the start of its refusal message, and their kind.
_TRIGGER_CODES: dict[str, type[CognitionError]] = {
    "cross_scope_reference": Conflict,
    "scope_id_immutable": Invalid,
    "kernel_cardinality": Conflict,
    "artifact_without_scope": Invalid,
    "scope_not_empty": Conflict,
}
_TRIGGER_RE = re.compile(r"\b(" + "|".join(_TRIGGER_CODES) + r"): ([^}]*)")


def _database_going_away(exc: Neo4jError) -> bool:
    """Raised because the server is stopping or starting (seen in the restart test: the before-commit trigger
    fails with "Timeout waiting for database to become available"); the transaction rolled back, so a retry
    is safe: a 503, not a 500."""
    code, text = exc.code or "", str(exc)
    return (code.startswith("Neo.DatabaseError.") or "Terminated" in code
            or "database to become available" in text or "DatabaseUnavailable" in text
            or "Database unavailable" in text)


def translate(exc: Exception) -> CognitionError:
    """A Neo4j driver error as a domain error (the one place this mapping lives)."""
    if isinstance(exc, CognitionError):
        return exc
    if isinstance(exc, (ServiceUnavailable, SessionExpired, ConnectionError)):
        return Unavailable("Neo4j is not reachable right now; retry shortly")
    if isinstance(exc, Neo4jError) and _database_going_away(exc):
        return Unavailable("Neo4j is not available right now; retry shortly")
    if isinstance(exc, Neo4jError):
        m = _TRIGGER_RE.search(str(exc))
        if m:
            code = m.group(1)
            return _TRIGGER_CODES[code](f"refused by the database: {code}: {m.group(2).strip()}", code=code)
        if exc.code == "Neo.ClientError.Statement.EntityNotFound" or "EntityNotFoundException" in (exc.message or ""):
            # The node was deleted by a transaction that committed while this one waited for its lock (a working
            # state cleared, a scope deleted): for the caller it is gone.
            return NotFound("it was removed by a concurrent operation", code="not_found")
        if isinstance(exc, ConstraintError):
            return Conflict(f"a uniqueness constraint refused the write: {exc.message}", code="already_exists")
        if exc.code and exc.code.startswith("Neo.ClientError.Transaction.InvalidBookmark"):
            return Invalid("a Cognition-Bookmark is not a bookmark this database issued", code="invalid_bookmark",
                           details={"field": "Cognition-Bookmark"})
        if exc.code == "Neo.TransientError.Transaction.BookmarkTimeout":
            return Unavailable("the database has not reached the Cognition-Bookmark sent yet; retry shortly",
                               code="bookmark_not_reached")
        if exc.code and exc.code.startswith("Neo.TransientError"):
            return Unavailable("Neo4j is busy; retry shortly", code="neo4j_busy")
        if exc.code and "DatabaseUnavailable" in exc.code:
            return Unavailable("the Neo4j database is not available")
    return CognitionError(f"unexpected database error: {type(exc).__name__}")
