"""What the adapters (HTTP routes, the MCP tools) share about the wire and nothing below them knows: a domain
refusal's HTTP status and its body, opaque cursors, `If-Match` revisions and bearer tokens."""

from __future__ import annotations

import base64
import json
import re
from datetime import datetime
from typing import Any

from pydantic import TypeAdapter

from cognition.schemas.records import ArtifactPublic
from graph.errors import (
    CognitionError,
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    PreconditionFailed,
    Unavailable,
)
from graph.model import Artifact, Family
from service.usecases.access import Unauthenticated
from service.usecases.limits import RateLimited


class PayloadTooLarge(CognitionError):
    code = "request_too_large"


class PreconditionRequired(CognitionError):
    code = "if_match_required"


# First match wins; a subclass answers as its kind (a gate's refusal is an Invalid: 422).
_STATUS: tuple[tuple[type[CognitionError], int], ...] = (
    (Unauthenticated, 401), (Forbidden, 403), (NotFound, 404), (Conflict, 409), (PreconditionFailed, 412),
    (PayloadTooLarge, 413), (Invalid, 422), (PreconditionRequired, 428), (RateLimited, 429), (Unavailable, 503),
)
# Headers that go with a kind: the scheme a client should authenticate with, and how long to wait before a retry
# (the client, cognition.client, waits this long).
_HEADERS: tuple[tuple[type[CognitionError], dict[str, str]], ...] = (
    (Unauthenticated, {"WWW-Authenticate": "Bearer"}), (Unavailable, {"Retry-After": "1"}),
)


def status_of(exc: CognitionError) -> int:
    """The HTTP status a refusal is answered with (500: the service failed)."""
    for kind, status in _STATUS:
        if isinstance(exc, kind):
            return status
    return 500


def headers_of(exc: CognitionError) -> dict[str, str] | None:
    if isinstance(exc, RateLimited):  # how long, and which policy (draft-ietf-httpapi-ratelimit-headers-11)
        return exc.headers()
    for kind, headers in _HEADERS:
        if isinstance(exc, kind):
            return headers
    return None


def refusal_body(exc: CognitionError) -> dict[str, Any]:
    """The body of every refusal: `{"code", "message", ...details}` (cognition.schemas.errors.ErrorBody)."""
    return {"code": exc.code, "message": exc.message, **exc.details}


# ---- cursors: opaque to callers, JSON under URL-safe base64 ---------------------------------------------------

def invalid_cursor() -> Invalid:
    return Invalid("cursor is not one this service issued", code="invalid_cursor", details={"field": "cursor"})


def encode_cursor(position: Any) -> str:
    return base64.urlsafe_b64encode(json.dumps(position).encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> Any:
    """The position a cursor carries; 422 `invalid_cursor` for anything that is not one."""
    try:
        return json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except Exception as exc:  # noqa: BLE001 - every malformed cursor is the same refusal
        raise invalid_cursor() from exc


def pair_position(cursor: str) -> tuple[str, str]:
    """A cursor that carries a pair of strings: a scope list's (namespace, id), a page's (created_at, id)."""
    position = decode_cursor(cursor)
    if not (isinstance(position, list) and len(position) == 2):
        raise invalid_cursor()
    return str(position[0]), str(position[1])


def list_cursor(created_at: datetime, id: str) -> str:
    """A list page's cursor: the (created_at, id) of its last row."""
    return encode_cursor([created_at.isoformat(), id])


def list_position(cursor: str) -> tuple[datetime, str]:
    at, id = pair_position(cursor)
    try:
        return datetime.fromisoformat(at), id
    except ValueError as exc:
        raise invalid_cursor() from exc


def event_cursor(namespace: str, position: int) -> str:
    """A feed cursor: after the event at `position` of `namespace` (stable: a position never changes)."""
    return encode_cursor([namespace, position])


def event_position(namespace: str, cursor: str | None) -> int:
    """The position a feed cursor of `namespace` names (0: none, the start); 422 `invalid_cursor` for anything
    else, a cursor of another namespace included."""
    if not cursor:
        return 0
    position = decode_cursor(cursor)
    if not (isinstance(position, list) and len(position) == 2 and position[0] == namespace
            and isinstance(position[1], int) and not isinstance(position[1], bool) and position[1] >= 0):
        raise invalid_cursor()
    return position[1]


def view_header(asked: Any, view: Any) -> str:
    """A load's view of time, for its `Cognition-View` header: `current` (current truth: valid now, the store as it
    is), or `as_of=<instant>` and, for a read of the past, `; known_at=<instant>` (`asked`: the caller's
    service.usecases.timeview.TimeView, `view`: it resolved)."""
    if asked.as_of is None and asked.known_at is None:
        return "current"
    out = f"as_of={view.as_of.isoformat()}"
    return out + (f"; known_at={view.known_at.isoformat()}" if view.known_at is not None else "")


# ---- revisions and keys in headers ------------------------------------------------------------------------

_ETAG = re.compile(r'^\s*(?:W/)?"?(\d{1,12})"?\s*$')


def etag(revision: int) -> str:
    return f'"{revision}"'


def if_match_revision(value: str | None) -> int:
    """The revision an `If-Match` header names: 428 without one, 412 for one that names no revision."""
    if value is None:
        raise PreconditionRequired("updates need If-Match with the ETag of the revision you read")
    m = _ETAG.match(value)
    if not m:
        raise PreconditionFailed(f"If-Match {value!r} names no revision of this record")
    return int(m.group(1))


def bearer(value: str | None) -> str | None:
    """The key in an `Authorization: Bearer <key>` header value, else None."""
    if not value:
        return None
    scheme, _, credentials = value.strip().partition(" ")
    if scheme.lower() != "bearer":
        return None
    return credentials.strip() or None


_public: TypeAdapter[Any] = TypeAdapter(ArtifactPublic)


def public(art: Artifact) -> Any:
    """A stored artifact in its public shape (knowledge's content is its body), for HTTP and MCP alike."""
    data = art.model_dump()
    if art.family is Family.knowledge:
        data["body"] = data.pop("content")
    return _public.validate_python(data)
