"""startup: how fast a replica is ready — `cognition serve` started against the bench's Neo4j (up, schema applied),
timed from the process's start to the first 200 on `/readyz`, `starts` times. Target: p50 ≤ 2 s (a killed replica
or a rolling restart costs seconds). Beside it, in the same run, the baseline: a bare interpreter importing the
libraries the service is built on (FastAPI, uvicorn, the neo4j driver, pydantic-settings), what no service on them
can start faster than. And, from the service's own log line (`[cognition] started in …`), the median of each
start-up phase (info): imports, schema, runtime, keys, heap."""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from bench.common import Context, Row, progress
from tests.served import free_port

NAME = "startup"
MAX_P50_S = 2.0
BASELINE = "import fastapi, uvicorn, neo4j, pydantic_settings"
_LAPS = re.compile(r"started in [0-9.]+ s: (.*)")


def _one(env: dict[str, str], log: Path) -> tuple[float, dict[str, float]]:
    port = free_port()
    t0 = time.perf_counter()
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "service.cli", "serve"],
                                env={**env, "COGNITION_PORT": str(port)}, stdout=out, stderr=subprocess.STDOUT)
    try:
        with httpx.Client(timeout=2.0) as c:
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"cognition serve exited: {log.read_text()[-2000:]}")
                try:
                    if c.get(f"http://127.0.0.1:{port}/readyz").status_code == 200:
                        ready = time.perf_counter() - t0
                        break
                except httpx.TransportError:
                    pass
                if time.perf_counter() - t0 > 60:
                    raise RuntimeError("cognition serve was not ready within 60 s")
                time.sleep(0.01)
    finally:
        proc.terminate()
        proc.wait(30)
    m = _LAPS.search(log.read_text(errors="replace"))
    laps = {}
    for part in (m.group(1).split(", ") if m else []):
        name, ms, _ = part.split(" ")
        laps[name] = float(ms)
    return ready, laps


def _baseline() -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", BASELINE], check=True)
    return time.perf_counter() - t0


async def run(ctx: Context) -> list[Row]:
    if ctx.cfg is None:
        raise RuntimeError("startup needs the bench's Neo4j settings (bench.common.Context.cfg)")
    n = ctx.sizes.starts
    env = {**os.environ, "NEO4J_URI": ctx.cfg.uri, "NEO4J_USER": ctx.cfg.user, "NEO4J_PASSWORD": ctx.cfg.password,
           "COGNITION_BOOTSTRAP_KEY": "bench-" + secrets.token_urlsafe(24)}
    progress(f"{NAME}: {n} starts of cognition serve to the first 200 on /readyz, each beside a baseline import")
    ready, base, phases = [], [], {}
    with tempfile.TemporaryDirectory() as tmp:
        await asyncio.to_thread(_one, env, Path(tmp) / "warm.log")  # the page cache warm, as on a restart
        for i in range(n):
            took, laps = await asyncio.to_thread(_one, env, Path(tmp) / f"serve-{i}.log")
            ready.append(took)
            base.append(await asyncio.to_thread(_baseline))
            for name, ms in laps.items():
                phases.setdefault(name, []).append(ms)
    p50, b50 = statistics.median(ready), statistics.median(base)
    rows = [Row(NAME, "serve -> /readyz 200, p50", round(p50 * 1000, 1), round(b50 * 1000, 1), "ms",
                f"<= {MAX_P50_S * 1000:.0f} ms", p50 <= MAX_P50_S),
            Row(NAME, "serve -> /readyz 200, max", round(max(ready) * 1000, 1), round(max(base) * 1000, 1), "ms")]
    rows += [Row(NAME, f"phase: {name}, p50", round(statistics.median(ms), 1), None, "ms")
             for name, ms in phases.items()]
    return rows
