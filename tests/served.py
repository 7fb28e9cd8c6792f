"""The one test harness for a real server, for every test, the soak and the bench that need one:

- `Served`: `cognition serve` in a subprocess on a free port (SIGKILL with `kill()`, started again with `start()`):
  the served process, for real overlap — in-process `TestClient` calls never overlap in the database (one event
  loop, requests one after another), so anything that reads, checks and writes is also tested through this;
- `InThread`: the app made with given settings, served by uvicorn in a thread of this process, on a real socket
  (schemathesis sends its requests to it; Neo4j Browser fetches its guide from it);
- `race`: concurrent clients released by a barrier, so requests really overlap.

tests/integration/conftest.py makes the session's `served` fixture from `Served`."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import httpx

from graph.driver import Neo4jConfig

T = TypeVar("T")


def free_port() -> int:
    """`COGNITION_SERVED_PORT` pins it (two checkouts testing side by side); else the OS picks a free one."""
    pinned = os.environ.get("COGNITION_SERVED_PORT")
    if pinned:
        return int(pinned)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Served:
    """One `cognition serve` process. `kill()` is a SIGKILL (nothing flushed); `start()` starts it again on
    the same port."""

    def __init__(self, cfg: Neo4jConfig, bootstrap_key: str, *, extra_env: dict[str, str] | None = None,
                 log: Path | None = None, port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.key = bootstrap_key
        self.log = log or Path(tempfile.mkstemp(prefix="cognition-serve-", suffix=".log")[1])
        self.env = {**os.environ, "NEO4J_URI": cfg.uri, "NEO4J_USER": cfg.user, "NEO4J_PASSWORD": cfg.password,
                    "NEO4J_DATABASE": cfg.database, "COGNITION_HOST": "127.0.0.1", "COGNITION_PORT": str(self.port),
                    "COGNITION_BOOTSTRAP_KEY": bootstrap_key, **(extra_env or {})}
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 300.0) -> None:  # a fresh store applies every migration first
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "service.cli", "serve"], env=self.env,
                                         stdout=out, stderr=subprocess.STDOUT)
        if not self.wait_ready(timeout):
            raise RuntimeError(f"cognition serve was not ready within {timeout:.0f} s:\n{self.tail()}")

    def wait_ready(self, timeout: float = 300.0) -> bool:
        """Until `/readyz` answers 200 (Neo4j up, schema applied, trigger live); False after `timeout`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"cognition serve exited ({self.proc.returncode}):\n{self.tail()}")
            try:
                if httpx.get(f"{self.url}/readyz", timeout=2.0).status_code == 200:
                    return True
            except httpx.HTTPError:
                pass
            time.sleep(0.25)
        return False

    def kill(self) -> None:
        """SIGKILL: the process gets no chance to flush anything."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

    def tail(self, lines: int = 40) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def workers(self) -> list[int]:
        """The worker processes uvicorn's supervisor started (`COGNITION_WORKERS` > 1; none otherwise), not
        multiprocessing's resource tracker, its other child (Linux `/proc`)."""
        kids: list[int] = []
        for task in Path(f"/proc/{self.pid}/task").iterdir():
            kids += [int(k) for k in (task / "children").read_text().split()]
        return [k for k in kids if b"resource_tracker" not in Path(f"/proc/{k}/cmdline").read_bytes()]

    def headers(self, key: str | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {key or self.key}"}

    def client(self, key: str | None = None, **kw: Any) -> httpx.Client:
        # Idle connections are dropped well before uvicorn's 5 s keep-alive closes them, so a request never goes
        # out on a connection the server is closing at that moment (a reset nobody could act on).
        return httpx.Client(base_url=self.url, headers={"Authorization": f"Bearer {key or self.key}"},
                            timeout=kw.pop("timeout", 300.0),
                            limits=kw.pop("limits", httpx.Limits(keepalive_expiry=1.0)), **kw)


class InThread:
    """The app `create_app(settings)` makes, served by uvicorn in a thread of this process (its own lifespan,
    driver and caches), on `port` or a free one: `with InThread(settings) as url:`."""

    def __init__(self, settings: Any, *, port: int | None = None, timeout: float = 60.0) -> None:
        import uvicorn

        from service.http.app import create_app

        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.timeout = timeout
        self.server = uvicorn.Server(uvicorn.Config(create_app(settings.model_copy(update={"port": self.port})),
                                                    host="127.0.0.1", port=self.port, log_level="warning",
                                                    access_log=False, lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        deadline = time.monotonic() + self.timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the app did not start on port {self.port}")
            time.sleep(0.05)
        return self.url

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(30)


def race(n: int, fn: Callable[[int, httpx.Client], T], *, make_client: Callable[[], httpx.Client]) -> list[T]:
    """Run fn(i, client) in n threads, each with its own connection, released together by a barrier so the
    requests really overlap in the server and the database. Exceptions are re-raised."""
    barrier = threading.Barrier(n)
    results: list[Any] = [None] * n
    errors: list[BaseException] = []
    clients = [make_client() for _ in range(n)]
    for c in clients:  # open each connection before the barrier, so only the requests race
        c.get("/healthz")

    def run(i: int) -> None:
        try:
            barrier.wait(30)
            results[i] = fn(i, clients[i])
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    for c in clients:
        c.close()
    if errors:
        raise errors[0]
    return results


def statuses(responses: Sequence[httpx.Response]) -> list[int]:
    return sorted(r.status_code for r in responses)
