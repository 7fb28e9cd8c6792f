"""When to retry a request and how long to wait: shared by the sync and async clients.

- 429 and 503 are retried for every request: the service refuses them before doing any work.
- 502 and 504 (a proxy in front), and a connection that broke after the request was sent, are retried only
  for requests that are safe to repeat: reads, PUT / DELETE, and saves (they carry an Idempotency-Key made once
  per save, so a repeat writes nothing twice and answers the first response).
- A connection that could not be made at all (the request never left) is retried for every request.
The wait is the service's `Retry-After` when it sent one (seconds or an HTTP date), else exponential backoff
with full jitter; a `Retry-After` longer than `max_retry_wait` is not waited for: the error is raised.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

import httpx

ALWAYS_RETRIED = frozenset({429, 503})
RETRIED_WHEN_SAFE = frozenset({502, 504})


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    max_retries: int = 3
    backoff: float = 0.25  # seconds; attempt n waits up to backoff * 2**n
    max_backoff: float = 8.0
    max_retry_wait: float = 60.0  # a longer Retry-After is not waited for


def retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """`Retry-After` in seconds: delta-seconds or an HTTP date; None when absent or unreadable."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def backoff(policy: RetryPolicy, attempt: int) -> float:
    return random.uniform(0, min(policy.max_backoff, policy.backoff * (2 ** attempt)))


def response_wait(policy: RetryPolicy, attempt: int, response: httpx.Response, *, safe: bool) -> float | None:
    """Seconds to wait before retrying after this response, or None to not retry."""
    if attempt >= policy.max_retries:
        return None
    status = response.status_code
    if status not in ALWAYS_RETRIED and not (safe and status in RETRIED_WHEN_SAFE):
        return None
    after = retry_after(response.headers.get("retry-after"))
    if after is None:
        return backoff(policy, attempt)
    return after if after <= policy.max_retry_wait else None


def error_wait(policy: RetryPolicy, attempt: int, exc: httpx.TransportError, *, safe: bool) -> float | None:
    """Seconds to wait before retrying after a transport error, or None to not retry."""
    if attempt >= policy.max_retries:
        return None
    never_sent = isinstance(exc, (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout))
    if never_sent or safe:
        return backoff(policy, attempt)
    return None
