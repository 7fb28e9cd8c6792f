"""The request loop (sync and async): one `Call` — method, path, body, headers, how to read the answer, whether
it is safe to repeat — run with the retry policy of `_retry.py`. A Call is built once, so a save's
Idempotency-Key is the same on every attempt."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import httpx
from pydantic import BaseModel

from cognition.client import errors
from cognition.client._retry import RetryPolicy, error_wait, response_wait

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)

DEFAULT_URL = "http://127.0.0.1:8080"
USER_AGENT = "cognition-client/0.1"
# A write's answer carries the bookmark of the write; sent back on every later request, it makes whichever replica
# or cluster member answers wait until it holds that write (read-your-writes; docs/operations.md).
BOOKMARK = "Cognition-Bookmark"


class Bookmark:
    """The newest bookmark a client was given, sent on each of its requests."""

    def __init__(self) -> None:
        self.value: str | None = None

    def headers(self, headers: dict[str, str]) -> dict[str, str]:
        return {**headers, BOOKMARK: self.value} if self.value else headers

    def keep(self, response: httpx.Response) -> None:
        value = response.headers.get(BOOKMARK)
        if value:
            self.value = value


@dataclass
class Call(Generic[T]):
    method: str
    path: str
    parse: Callable[[httpx.Response], T]
    params: dict[str, Any] | None = None
    json: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    safe: bool = False  # may be repeated after an ambiguous failure (reads, PUT, DELETE, idempotent saves)


def model(cls: type[M]) -> Callable[[httpx.Response], M]:
    def parse(response: httpx.Response) -> M:
        return cls.model_validate(response.json())

    return parse


def nothing(_: httpx.Response) -> None:
    return None


def as_json(response: httpx.Response) -> Any:
    return response.json()


def raw_bytes(response: httpx.Response) -> bytes:
    return response.content


def _settings(base_url: str | None, api_key: str | None) -> tuple[str, str | None]:
    url = (base_url or os.environ.get("COGNITION_URL") or DEFAULT_URL).rstrip("/")
    return url, api_key if api_key is not None else os.environ.get("COGNITION_API_KEY")


def _headers(api_key: str | None, extra: dict[str, str] | None) -> dict[str, str]:
    headers = {"User-Agent": USER_AGENT, "Accept": "application/json", **(extra or {})}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    return headers


def _params(params: dict[str, Any] | None) -> dict[str, Any] | None:
    if params is None:
        return None
    out: dict[str, Any] = {}
    for k, v in params.items():
        if v is None:
            continue
        out[k] = ("true" if v else "false") if isinstance(v, bool) else v.isoformat() if hasattr(v, "isoformat") else v
    return out


def _transport_error(call: Call[Any], exc: httpx.TransportError, attempts: int) -> errors.TransportError:
    return errors.TransportError(f"{call.method} {call.path}: {type(exc).__name__}: {exc} (after {attempts} "
                                 f"attempt{'s' if attempts != 1 else ''})", attempts=attempts)


class SyncCore:
    """Runs Calls on an `httpx.Client`. Makes no request until a Call is run."""

    def __init__(self, base_url: str | None, api_key: str | None, *, timeout: float, policy: RetryPolicy,
                 headers: dict[str, str] | None, transport: httpx.BaseTransport | None,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        url, key = _settings(base_url, api_key)
        self.base_url = url
        self.policy = policy
        self.sleep = sleep
        self.bookmark = Bookmark()
        self.http = httpx.Client(base_url=url, headers=_headers(key, headers), timeout=timeout, transport=transport)

    def run(self, call: Call[T]) -> T:
        attempt = 0
        while True:
            try:
                response = self.http.request(call.method, call.path, params=_params(call.params), json=call.json,
                                             headers=self.bookmark.headers(call.headers))
            except httpx.TransportError as exc:
                wait = error_wait(self.policy, attempt, exc, safe=call.safe)
                if wait is None:
                    raise _transport_error(call, exc, attempt + 1) from exc
                self.sleep(wait)
                attempt += 1
                continue
            self.bookmark.keep(response)
            if response.status_code < 400:
                return call.parse(response)
            wait = response_wait(self.policy, attempt, response, safe=call.safe)
            if wait is None:
                raise errors.from_response(response)
            self.sleep(wait)
            attempt += 1

    def pause(self, seconds: float) -> None:
        """Wait (a follow iterator between polls)."""
        self.sleep(seconds)

    def close(self) -> None:
        self.http.close()


class AsyncCore:
    """Runs Calls on an `httpx.AsyncClient`. Makes no request until a Call is run."""

    def __init__(self, base_url: str | None, api_key: str | None, *, timeout: float, policy: RetryPolicy,
                 headers: dict[str, str] | None, transport: httpx.AsyncBaseTransport | None) -> None:
        url, key = _settings(base_url, api_key)
        self.base_url = url
        self.policy = policy
        self.bookmark = Bookmark()
        self.http = httpx.AsyncClient(base_url=url, headers=_headers(key, headers), timeout=timeout,
                                      transport=transport)

    async def run(self, call: Call[T]) -> T:
        attempt = 0
        while True:
            try:
                response = await self.http.request(call.method, call.path, params=_params(call.params),
                                                   json=call.json, headers=self.bookmark.headers(call.headers))
            except httpx.TransportError as exc:
                wait = error_wait(self.policy, attempt, exc, safe=call.safe)
                if wait is None:
                    raise _transport_error(call, exc, attempt + 1) from exc
                await asyncio.sleep(wait)
                attempt += 1
                continue
            self.bookmark.keep(response)
            if response.status_code < 400:
                return call.parse(response)
            wait = response_wait(self.policy, attempt, response, safe=call.safe)
            if wait is None:
                raise errors.from_response(response)
            await asyncio.sleep(wait)
            attempt += 1

    async def pause(self, seconds: float) -> None:
        """Wait (a follow iterator between polls)."""
        await asyncio.sleep(seconds)

    async def close(self) -> None:
        await self.http.aclose()
