"""The served process: `cognition serve` as a subprocess on a free port, against the test Neo4j.

`served` (session-scoped) starts it once for every test that asks, waits for `/healthz`, and stops it at the end
of the session. It uses the same Neo4j and bootstrap key as the in-process `client` (tests/conftest.py), so a
key minted through either works on both. Tests that need real overlap or a real network hop (the Python client,
the MCP server over streamable HTTP, graph export over HTTP) use it instead of `TestClient`.

`COGNITION_SERVED_PORT` pins the port (two checkouts testing side by side); otherwise the OS picks a free one.
The process's stderr (its JSON request log) goes to a file in the pytest temp folder, shown when start-up fails.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from graph.driver import Neo4jConfig

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 120.0  # seconds; the schema is already applied (by `client`), so start-up is mostly imports


@dataclass(frozen=True, slots=True)
class Served:
    """A running `cognition serve`: its base URL and the bootstrap operator key (holds every namespace)."""

    url: str
    key: str
    pid: int
    log: Path

    def headers(self, key: str | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {key or self.key}"}


def free_port() -> int:
    pinned = os.environ.get("COGNITION_SERVED_PORT")
    if pinned:
        return int(pinned)
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _cognition() -> list[str]:
    exe = Path(sys.executable).with_name("cognition")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "service.cli"]


def start_served(cfg: Neo4jConfig, key: str, log: Path, *, extra_env: dict[str, str] | None = None) -> tuple[
        subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "NEO4J_URI": cfg.uri, "NEO4J_USER": cfg.user, "NEO4J_PASSWORD": cfg.password,
           "NEO4J_DATABASE": cfg.database, "COGNITION_BOOTSTRAP_KEY": key, "COGNITION_HOST": "127.0.0.1",
           "COGNITION_PORT": str(port), **(extra_env or {})}
    out = log.open("wb")
    proc = subprocess.Popen([*_cognition(), "serve"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                            start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"cognition serve exited with {proc.returncode}:\n{log.read_text(errors='replace')}")
        try:
            if httpx.get(url + "/healthz", timeout=2.0).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            stop_served(proc)
            raise RuntimeError(f"cognition serve did not answer /healthz within {START_TIMEOUT:.0f} s:\n"
                               f"{log.read_text(errors='replace')[-4000:]}")
        time.sleep(0.3)


def stop_served(proc: subprocess.Popen[bytes]) -> None:
    """SIGINT (uvicorn's graceful stop), then SIGKILL if it lingers; only this process (its own session)."""
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


@pytest.fixture(scope="session")
def served(neo4j_config: Neo4jConfig, client: TestClient, tmp_path_factory: pytest.TempPathFactory) -> Iterator[
        Served]:
    """`cognition serve` on a free port against the test Neo4j (see the module docstring)."""
    from tests.conftest import BOOTSTRAP_KEY

    log = tmp_path_factory.mktemp("served") / "serve.log"
    proc, url = start_served(neo4j_config, BOOTSTRAP_KEY, log)
    try:
        yield Served(url, BOOTSTRAP_KEY, proc.pid, log)
    finally:
        stop_served(proc)
