"""save_http: sequential single saves through the HTTP API, as an agent makes them — a real `cognition serve` process
on the bench's Neo4j, one memory per `POST /v1/scopes/{id}/memories`, one after another over one keep-alive
connection (httpx). Every guarantee holds on this path: one transaction per save, every gate, the trigger, the
revision and the audit event. Targets: ≥ 150 saves/s and p50 ≤ 7 ms.

The same served process is then measured again with a lean client: the standard library's `http.client`, keep-alive,
bodies encoded beforehand. On this 2-core machine the client shares the cores with the server and Neo4j; httpx
spends ~1.4 ms of CPU a request where `http.client` spends ~0.5 ms, so the lean rows are nearer the service's own
speed. Beside them, in the same run, a one-node raw commit (`CREATE (:BenchProbe {i: $i})`, the trigger still
runs) through the raw driver: what a save through the whole service costs above the bare commit (info). And,
over the lean run, the CPU each process spent a save (info; Linux `/proc`): this client, the served process, and
Neo4j's whole JVM (the query and commit, the full-text index thread, the JIT, GC) when the bench manages it. On
two cores a sequential save costs about the sum of the first two and Neo4j's Bolt worker share.

The service listens on COGNITION_BENCH_SERVICE_PORT (default 27080); its request log goes to a temporary file."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import secrets
import time
from pathlib import Path
from typing import Any

import httpx

from bench.common import Context, Row, TextGen, pct, progress, timed
from service import neo4j_local
from tests.served import Served

NAME = "save_http"
MIN_RATE = 150.0  # saves/s
MAX_P50_MS = 7.0
RAW_COMMIT = "CREATE (:BenchProbe {i: $i})"
# A served process and its Neo4j run for days: measure them warm. On a freshly started bench Neo4j the JIT compiles
# the commit path for ~10,000 saves (its C2 threads took 21 ms of CPU a save over the first 1,000, ~5 ms after
# 5,000 and ~2 ms after 10,000, on 2 cores), and a settling test on noisy windows stops early: from a minimum of
# 2,000 saves the p50 settled at 13–15 ms while the same code ran at 8–10 ms after 10,000. So the warm-up makes at
# least WARM_MIN saves, in windows of
# WARM_WINDOW, then goes on until the window p50 stops falling (two windows in a row no more than SETTLED below the
# best before them) or WARM_MAX. The raw commit baseline then runs on the same, now warm, server, after RAW_WARM
# commits of its own.
WARM_MIN = 12000
WARM_MAX = 16000
WARM_WINDOW = 1000
SETTLED = 0.03
RAW_WARM = 2000


def _port() -> int:
    return int(os.environ.get("COGNITION_BENCH_SERVICE_PORT", "27080"))


def _settled(p50s: list[float]) -> bool:
    """The warm-up's window p50s (ms) have stopped falling: the last two are both no more than SETTLED below the
    best window before them."""
    if len(p50s) < 3:
        return False
    best = min(p50s[:-2])
    return all(p >= best * (1 - SETTLED) for p in p50s[-2:])


def _posts(client: httpx.Client, path: str, bodies: list[dict[str, Any]]) -> list[int]:
    lat: list[int] = []
    for body in bodies:
        t0 = time.perf_counter_ns()
        r = client.post(path, json=body)
        lat.append(time.perf_counter_ns() - t0)
        if r.status_code != 201:
            raise RuntimeError(f"save answered {r.status_code}: {r.text[:200]}")
    return lat


def _cpu_s(pid: int | None) -> float | None:
    """A process's user + system CPU seconds so far (Linux `/proc`); None where that cannot be read."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class _CpuPerSave:
    """CPU milliseconds a save of this client (the whole bench process), the served process and Neo4j, over
    the saves between `__enter__` and `__exit__` (`n` of them)."""

    def __init__(self, served: int, neo4j: int | None, n: int) -> None:
        self.pids, self.n = {"served": served, "neo4j": neo4j}, n
        self.ms: dict[str, float | None] = {}

    def __enter__(self) -> _CpuPerSave:
        self.start = {"client": time.process_time(), **{k: _cpu_s(p) for k, p in self.pids.items()}}
        return self

    def __exit__(self, *exc: object) -> None:
        end = {"client": time.process_time(), **{k: _cpu_s(p) for k, p in self.pids.items()}}
        for k, t0 in self.start.items():
            t1 = end[k]
            self.ms[k] = None if t0 is None or t1 is None else (t1 - t0) * 1000 / self.n


def _lean_posts(base: str, key: str, path: str, bodies: list[dict[str, Any]],
                cpu: _CpuPerSave) -> tuple[list[int], float]:
    """The same saves through `http.client` (one keep-alive connection): (latencies in ns, saves per second);
    `cpu` measures the processes over them."""
    host, _, port = base.removeprefix("http://").partition(":")
    headers = {"authorization": f"Bearer {key}", "content-type": "application/json"}
    encoded = [json.dumps(b).encode() for b in bodies]
    conn = http.client.HTTPConnection(host, int(port), timeout=30.0)
    lat: list[int] = []
    try:
        started = time.perf_counter()
        with cpu:
            for data in encoded:
                t0 = time.perf_counter_ns()
                conn.request("POST", path, body=data, headers=headers)
                r = conn.getresponse()
                answer = r.read()
                lat.append(time.perf_counter_ns() - t0)
                if r.status != 201:
                    raise RuntimeError(f"save answered {r.status}: {answer[:200]!r}")
        return lat, len(encoded) / (time.perf_counter() - started)
    finally:
        conn.close()


def _sequential(base: str, key: str, n: int,
                cpu: _CpuPerSave) -> tuple[list[int], float, int, list[int], float]:
    """(latency of each measured save in ns, saves per second over the measured run, warm-up saves made, and the
    same two for the lean client, over whose saves `cpu` measures)."""
    gen = TextGen(18)
    with httpx.Client(base_url=base, headers={"authorization": f"Bearer {key}"}, timeout=30.0) as client:
        r = client.post("/v1/scopes", json={"namespace": "bench", "cognitive_owner": "http",
                                            "name": f"save-http-{secrets.token_hex(4)}"})
        r.raise_for_status()
        path = f"/v1/scopes/{r.json()['id']}/memories"
        p50s: list[float] = []
        while len(p50s) * WARM_WINDOW < WARM_MAX and not (len(p50s) * WARM_WINDOW >= WARM_MIN and _settled(p50s)):
            window = [gen.memory().model_dump(mode="json", exclude_none=True) for _ in range(WARM_WINDOW)]
            p50s.append(pct(_posts(client, path, window), 0.5))
        progress(f"{NAME}: warm after {len(p50s) * WARM_WINDOW} saves (window p50s "
                 + ", ".join(f"{p:.1f}" for p in p50s) + " ms)")
        bodies = [gen.memory().model_dump(mode="json", exclude_none=True) for _ in range(n)]
        started = time.perf_counter()
        lat = _posts(client, path, bodies)
        rate = n / (time.perf_counter() - started)
    lean, lean_rate = _lean_posts(base, key, path, [gen.memory().model_dump(mode="json", exclude_none=True)
                                                    for _ in range(n)], cpu)
    return lat, rate, len(p50s) * WARM_WINDOW, lean, lean_rate


async def run(ctx: Context) -> list[Row]:
    n = ctx.sizes.single
    key = "bench-" + secrets.token_urlsafe(24)
    if ctx.cfg is None:
        raise RuntimeError("save_http needs the bench's Neo4j settings (bench.common.Context.cfg)")
    served = Served(ctx.cfg, key, port=_port())  # the tests' harness (tests/served.py); its log: a temporary file
    try:
        await asyncio.to_thread(served.start, 120.0)
        progress(f"{NAME}: cognition serve on {served.url}; warm-up {WARM_MIN}-{WARM_MAX}, then {n} sequential saves")
        managed = neo4j_local.instance_for(ctx.cfg.uri)
        cpu = _CpuPerSave(served.pid, neo4j_local.status(managed) if managed else None, n)
        lat, rate, warm, lean, lean_rate = await asyncio.to_thread(_sequential, served.url, key, n, cpu)
    finally:
        served.stop()
    commit_ns = []
    for i in range(RAW_WARM + n):
        ns = await timed(lambda j: ctx.raw_write(RAW_COMMIT, i=j), i)
        if i >= RAW_WARM:
            commit_ns.append(ns)
    await ctx.raw_write("MATCH (p:BenchProbe) DELETE p")
    p50, p95 = pct(lat, 0.5), pct(lat, 0.95)
    return [
        Row(NAME, f"sequential HTTP saves (n={n}, after {warm} warm-up) per second", rate, None, "saves/s",
            f">= {MIN_RATE:g}/s", rate >= MIN_RATE),
        Row(NAME, f"sequential HTTP save p50 (n={n}) vs one-node raw commit", p50, pct(commit_ns, 0.5), "ms",
            f"<= {MAX_P50_MS:g} ms", p50 <= MAX_P50_MS),
        Row(NAME, f"sequential HTTP save p95 (n={n}) vs one-node raw commit (info)", p95, pct(commit_ns, 0.95), "ms"),
        Row(NAME, f"the same, lean client (http.client, n={n}) per second", lean_rate, None, "saves/s",
            f">= {MIN_RATE:g}/s", lean_rate >= MIN_RATE),
        Row(NAME, f"the same, lean client (http.client, n={n}) p50 vs one-node raw commit", pct(lean, 0.5),
            pct(commit_ns, 0.5), "ms", f"<= {MAX_P50_MS:g} ms", pct(lean, 0.5) <= MAX_P50_MS),
        *(Row(NAME, f"the lean run's CPU a save: {what} (info)", cpu.ms[k], None, "ms")
          for k, what in (("client", "this client"), ("served", "the served process"),
                          ("neo4j", "Neo4j, the whole JVM")) if cpu.ms.get(k) is not None),
    ]
