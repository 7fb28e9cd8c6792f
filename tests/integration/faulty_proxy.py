"""A real HTTP proxy on loopback in front of the served process, that misbehaves on request: it can forward a
request and then drop the connection before the answer (the request was applied, the caller cannot know), or
answer a status of its own (429 / 503 with `Retry-After`) without forwarding. Everything else it relays as is.
It records every request it saw (method, path, headers), so a test can tell what the client sent and how often.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx

_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", "date", "server"}


@dataclass
class Fault:
    kind: str  # "drop" (forward, then drop the connection) or "status" (answer `status` without forwarding)
    method: str | None = None
    path_contains: str | None = None
    status: int = 503
    retry_after: str | None = None
    times: int = 1

    def matches(self, method: str, path: str) -> bool:
        return (self.times > 0 and (self.method is None or self.method == method)
                and (self.path_contains is None or self.path_contains in path))


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]


@dataclass
class FaultyProxy:
    upstream: str
    faults: list[Fault] = field(default_factory=list)
    seen: list[Seen] = field(default_factory=list)
    url: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def fail(self, kind: str, **kw: Any) -> None:
        with self.lock:
            self.faults.append(Fault(kind, **kw))

    def take(self, method: str, path: str, headers: dict[str, str]) -> Fault | None:
        with self.lock:
            self.seen.append(Seen(method, path, headers))
            for f in self.faults:
                if f.matches(method, path):
                    f.times -= 1
                    return f
            return None

    def requests(self, method: str, path_contains: str) -> list[Seen]:
        return [s for s in self.seen if s.method == method and path_contains in s.path]


@contextmanager
def faulty_proxy(upstream: str) -> Iterator[FaultyProxy]:
    proxy = FaultyProxy(upstream)
    forward = httpx.Client(base_url=upstream, timeout=60)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            return

        def _handle(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length) if length else b""
            fault = proxy.take(self.command, self.path, {k.lower(): v for k, v in self.headers.items()})
            if fault is not None and fault.kind == "status":
                payload = json.dumps({"code": "proxy_fault", "message": "injected by the test proxy"}).encode()
                self.send_response(fault.status)
                if fault.retry_after is not None:
                    self.send_header("Retry-After", fault.retry_after)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
                return
            headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP and k.lower() != "host"}
            r = forward.request(self.command, self.path, content=body, headers=headers)
            if fault is not None and fault.kind == "drop":
                self.close_connection = True  # the request was applied upstream; its answer never arrives
                return
            self.send_response(r.status_code)
            for k, v in r.headers.items():
                if k.lower() not in _HOP:
                    self.send_header(k, v)
            self.send_header("Content-Length", str(len(r.content)))
            self.end_headers()
            self.wfile.write(r.content)

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _handle

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    proxy.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield proxy
    finally:
        server.shutdown()
        server.server_close()
        forward.close()
