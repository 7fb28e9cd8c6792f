"""agents: throughput under concurrent agents, through a real `cognition serve` (tests/served.py) with 1, 2 and 4
worker processes (`COGNITION_WORKERS`): 1, 4, 16 and 64 clients, each with its own keep-alive connection
(`http.client`, in threads of this process, so the clients share the two cores with the service and Neo4j, as the
target allows for), saving, searching or asking for context, each client on a scope of its own (`own`) or all on
one scope (`shared`). Each cell runs `sizes.agent_seconds` after a short warm-up and reports requests per second
and p95 (info), and the CPU per request of the served processes (the uvicorn supervisor and its workers) and,
when the bench manages it, of Neo4j's JVM (info; Linux `/proc`, over the cell's whole run, its second of warm-up
included).

Before a layout's search or context cells, every worker holds a copy of every scope they ask (`_visit`): the cells
time calls, not the copies a worker builds on a scope's first call there (the cold_copy bench times those).

Before each timed cell the bench waits (at most SETTLE_MAX_S) until the JVM it manages is near idle: after a burst of
saves Neo4j merges and flushes its indexes for ten to twenty seconds at more than a core, and a cell that started
then would measure that work, not its own clients.

Targets (per operation on own scopes, at the worker count with the most throughput at 16 clients): 16 clients ≥ 1.6× the
throughput of one, and 64 clients not below 4."""

from __future__ import annotations

import asyncio
import http.client
import json
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from bench.common import Context, Row, TextGen, pct, progress
from bench.save_http import _cpu_s, _port
from service import neo4j_local
from service.usecases.artifacts import save
from service.usecases.drafts import draft_of
from tests.served import Served

NAME = "agents"
CLIENTS = (1, 4, 16, 64)
WORKERS = (1, 2, 4)
OPS = ("save", "search", "context")
PER_SCOPE = 50  # memories in each client's own scope; the shared scope holds CLIENTS[-1] times as many
SCALE_16, FLOOR_64 = 1.6, 1.0
JVM_WARM_S = 60.0  # saves (into the shared scope) from 8 clients before the first cell: a fresh JVM is slow
# Requests on connections of their own that each scope gets, per worker, before a search or context cell (`_visit`):
# were each connection accepted by any worker alike, one would miss a scope with odds (1 - 1/w)^(8 w), 1 in 65,000
# at 2 workers and 1 in 10,000 at 4 (accepting is a race, not a draw: more than needed).
WARM_VISITS = 8
SETTLE_CPU, SETTLE_MAX_S = 0.3, 45.0  # cores Neo4j may still use when a cell starts; the longest wait for that


def _settle(jvm: int | None) -> None:
    """Wait until Neo4j's JVM has used under SETTLE_CPU of a core over a second (at most SETTLE_MAX_S)."""
    deadline = time.monotonic() + SETTLE_MAX_S
    while jvm is not None and time.monotonic() < deadline:
        t0 = _cpu_s(jvm)
        time.sleep(1.0)
        t1 = _cpu_s(jvm)
        if t0 is None or t1 is None or t1 - t0 < SETTLE_CPU:
            return


def _cpu(pids: list[int]) -> float:
    return sum(_cpu_s(p) or 0.0 for p in pids)


def _request(op: str, scope_id: str, gen: TextGen) -> tuple[str, str, bytes, int]:
    if op == "save":
        body = gen.memory().model_dump(mode="json", exclude_none=True)
        return "POST", f"/v1/scopes/{scope_id}/memories", json.dumps(body).encode(), 201
    if op == "search":
        return "POST", f"/v1/scopes/{scope_id}/memories/search", json.dumps({"query": gen.query()}).encode(), 200
    return ("POST", f"/v1/scopes/{scope_id}/context",
            json.dumps({"surface": "all", "query": gen.query()}).encode(), 200)


def _visit(url: str, key: str, op: str, scopes: list[str], visits: int) -> None:
    """Ask each scope `visits` times, each request on a connection of its own (8 at a time). A worker builds its
    copy of a scope on the scope's first search or context call there, and a keep-alive connection stays with the
    worker that accepted it: a warm-up of 8 clients on 8 scopes would leave the 64-client cell building the other
    scopes' copies on every worker while it is timed. A new connection goes to whichever worker accepts it:
    `visits` of them per scope miss a worker only rarely (WARM_VISITS)."""
    host, _, port = url.removeprefix("http://").partition(":")
    headers = {"authorization": f"Bearer {key}", "content-type": "application/json"}

    def ask(i: int) -> None:
        method, path, body, want = _request(op, scopes[i % len(scopes)], TextGen(5000 + i))
        conn = http.client.HTTPConnection(host, int(port), timeout=120.0)
        try:
            conn.request(method, path, body=body, headers=headers)
            r = conn.getresponse()
            answer = r.read()
            if r.status != want:
                raise RuntimeError(f"{op} answered {r.status}: {answer[:200]!r}")
        finally:
            conn.close()

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(ask, range(len(scopes) * visits)))


def _cell(url: str, key: str, op: str, scopes: list[str], clients: int, seconds: float) -> tuple[float, float]:
    """`clients` threads, each on its own connection and scope (scopes[i % len(scopes)]), for `seconds` after a
    warm-up of a second: (requests per second, p95 ms)."""
    host, _, port = url.removeprefix("http://").partition(":")
    headers = {"authorization": f"Bearer {key}", "content-type": "application/json"}
    barrier = threading.Barrier(clients + 1)
    lat: list[list[int]] = [[] for _ in range(clients)]
    errors: list[str] = []
    window: dict[str, float] = {}

    def client(i: int) -> None:
        gen = TextGen(1000 + i)
        conn = http.client.HTTPConnection(host, int(port), timeout=120.0)
        reqs = [_request(op, scopes[i % len(scopes)], gen) for _ in range(64)]
        barrier.wait()
        n = 0
        try:
            while time.perf_counter() < window["end"]:
                method, path, body, want = reqs[n % len(reqs)]
                t0 = time.perf_counter_ns()
                conn.request(method, path, body=body, headers=headers)
                r = conn.getresponse()
                answer = r.read()
                if r.status != want:
                    errors.append(f"{op} answered {r.status}: {answer[:200]!r}")
                    return
                if time.perf_counter() >= window["start"]:
                    lat[i].append(time.perf_counter_ns() - t0)
                n += 1
        finally:
            conn.close()

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    now = time.perf_counter()
    window.update(start=now + 1.0, end=now + 1.0 + seconds)
    barrier.wait()
    for t in threads:
        t.join()
    if errors:
        raise RuntimeError(errors[0])
    every = [x for per in lat for x in per]
    return len(every) / seconds, pct(every, 0.95)


async def _scopes(ctx: Context) -> tuple[list[str], str]:
    gen = TextGen(77)
    own = []
    for _ in range(CLIENTS[-1]):
        sid = await ctx.new_scope(f"{NAME}-own")
        await save(ctx.rt, sid, [draft_of(gen.memory()) for _ in range(PER_SCOPE)], actor="bench")
        own.append(sid)
    shared = await ctx.new_scope(f"{NAME}-shared")
    for _ in range(CLIENTS[-1] * PER_SCOPE // 500):
        await save(ctx.rt, shared, [draft_of(gen.memory()) for _ in range(500)], actor="bench")
    return own, shared


async def run(ctx: Context) -> list[Row]:
    if ctx.cfg is None:
        raise RuntimeError("agents needs the bench's Neo4j settings (bench.common.Context.cfg)")
    own, shared = await _scopes(ctx)
    managed = neo4j_local.instance_for(ctx.cfg.uri)
    jvm = neo4j_local.status(managed) if managed else None  # Neo4j's CPU a request too, when the bench runs it
    key = "bench-" + secrets.token_urlsafe(24)
    rows: list[Row] = []
    rates: dict[tuple[int, str, str, int], float] = {}
    for workers in WORKERS:
        served = Served(ctx.cfg, key, port=_port(), extra_env={"COGNITION_WORKERS": str(workers)})
        try:
            await asyncio.to_thread(served.start, 180.0)
            pids = [served.pid, *served.workers()]
            progress(f"{NAME}: cognition serve with {workers} worker(s): processes {pids}")
            if workers == WORKERS[0]:  # a fresh JVM compiles the write path over its first thousands of saves
                await asyncio.to_thread(_cell, served.url, key, "save", [shared], 8, JVM_WARM_S)
            for op in OPS:
                for layout, scopes in (("own", own), ("shared", [shared])):
                    # warm each worker's plans and scope copies before timing
                    await asyncio.to_thread(_cell, served.url, key, op, scopes, 8, 2.0)
                    if op != "save":
                        await asyncio.to_thread(_visit, served.url, key, op, scopes, WARM_VISITS * workers)
                    for clients in CLIENTS:
                        await asyncio.to_thread(_settle, jvm)
                        cpu0, jvm0, t0 = _cpu(pids), _cpu_s(jvm), time.perf_counter()
                        rate, p95 = await asyncio.to_thread(_cell, served.url, key, op, scopes, clients,
                                                            ctx.sizes.agent_seconds)
                        done = max(1.0, rate * (time.perf_counter() - t0))  # requests over the CPU window
                        cpu_ms = (_cpu(pids) - cpu0) * 1000 / done
                        jvm1 = _cpu_s(jvm)
                        jvm_ms = None if jvm0 is None or jvm1 is None else (jvm1 - jvm0) * 1000 / done
                        rates[(workers, op, layout, clients)] = rate
                        what = f"{op}, {layout} scope{'s' if layout == 'own' else ''}, {workers} worker(s), " \
                               f"{clients} client(s)"
                        rows.append(Row(NAME, f"{what}: requests/s (info)", rate, None, "req/s"))
                        rows.append(Row(NAME, f"{what}: p95 (info)", p95, None, "ms"))
                        rows.append(Row(NAME, f"{what}: served CPU a request (info)", cpu_ms, None, "ms"))
                        if jvm_ms is not None:
                            rows.append(Row(NAME, f"{what}: Neo4j CPU a request (info)", jvm_ms, None, "ms"))
                        progress(f"{NAME}: {what}: {rate:,.1f}/s, p95 {p95:,.1f} ms, served CPU {cpu_ms:.2f} ms, "
                                 f"Neo4j CPU {jvm_ms if jvm_ms is not None else float('nan'):.2f} ms")
        finally:
            served.stop()
    for op in OPS:
        best = max(WORKERS, key=lambda w: rates[(w, op, "own", 16)])
        one, four, sixteen, sixty_four = (rates[(best, op, "own", c)] for c in CLIENTS)
        rows.append(Row(NAME, f"{op}, own scopes, {best} worker(s): 16 clients vs 1 (requests/s)", sixteen, one,
                        "req/s", f">= {SCALE_16:g}x 1 client", sixteen >= SCALE_16 * one))
        rows.append(Row(NAME, f"{op}, own scopes, {best} worker(s): 64 clients vs 4 (requests/s)", sixty_four, four,
                        "req/s", f">= {FLOOR_64:g}x 4 clients", sixty_four >= FLOOR_64 * four))
    return rows
