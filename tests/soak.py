"""A bounded soak against served replicas: several `cognition serve` processes on one Neo4j (three by default), each
client spreading its requests over them round-robin as a load balancer would, a mixed workload on one partition,
all at once, then the invariants checked against the graph. `make soak` runs it for SOAK_S seconds (default 300)
on a Neo4j of its own; `tests/integration/test_soak_slice.py` runs a short slice of it inside `make test`.
Optionally with faults: the Neo4j restarted in the middle and one replica killed (SIGKILL) and started again.

What is checked afterwards (every acknowledged = the client got a 2xx):
- every acknowledged save exists exactly once (one node per id, one record per Idempotency-Key);
- every acknowledged update is one revision, and each record's revisions are 1..k with no gap or repeat;
- `recall_count` is the acknowledged recalls (loads, search and context hits) — plus, under faults, at most the
  recalls whose answer was lost (a request cut by the fault may have committed);
- nothing is both archived and active (no node is both an artifact and a tombstone; an active record carries no
  archive marks); no edge crosses scopes; never a 500, and a 503 only while a fault is in progress;
- read-your-writes across replicas: every acknowledged save is loaded at once from the next replica (200, never
  404), and every fourth is searched for there by its own words and found. Idempotency keys (a retried save goes
  to another replica), leases (digest and GC passes from any replica), recall counts and revisions are checked
  above across all replicas together.
- the event feed: a consumer process (tests/feed_consumer.py) follows the namespace's feed from the replicas in
  turn, is SIGKILLed halfway and started again with the cursor it kept, and ends with the whole feed once, in order
  (positions 1..n without a gap or a repeat) and every acknowledged save's event in it.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from neo4j import Driver

from tests.feed_consumer import read_state
from tests.served import Served

WORKERS = 8
REPLICAS = 3


class Spread:
    """One worker's connections to every replica, each request sent to the next (round-robin, as a load balancer
    would); `last` is the index of the replica that got the latest request."""

    def __init__(self, servers: Sequence[Served], start: int = 0) -> None:
        self.clients = [s.client() for s in servers]
        self.turn = start % len(self.clients)
        self.last = self.turn

    def request(self, method: str, url: str, **kw: Any) -> httpx.Response:
        self.last, self.turn = self.turn, (self.turn + 1) % len(self.clients)
        return self.clients[self.last].request(method, url, **kw)

    def __enter__(self) -> Spread:
        return self

    def __exit__(self, *exc: object) -> None:
        for c in self.clients:
            c.close()
OPS = ("save", "save_retry", "update", "load", "search", "context", "delete", "edge", "restore", "approve",
       "digest", "gc")
WEIGHTS = (14, 4, 16, 14, 8, 4, 3, 8, 3, 4, 1, 1)


@dataclass
class Ledger:
    """What the clients were told, and what they could not know (a request whose answer was lost)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    saved: dict[str, str] = field(default_factory=dict)  # idempotency key -> id acknowledged
    updates: Counter[str] = field(default_factory=Counter)  # id -> acknowledged updates
    unknown_updates: Counter[str] = field(default_factory=Counter)
    recalls: Counter[str] = field(default_factory=Counter)  # id -> acknowledged recalls
    unknown_recalls: Counter[str] = field(default_factory=Counter)
    deleted: set[str] = field(default_factory=set)
    unknown_deleted: set[str] = field(default_factory=set)
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: Counter[tuple[str, int]] = field(default_factory=Counter)
    bad: list[str] = field(default_factory=list)
    in_fault: bool = False

    def note(self, op: str, status: int, seconds: float, text: str = "") -> None:
        with self.lock:
            self.latencies[op].append(seconds)
            self.statuses[(op, status)] += 1
            if status == 500 or (status == 503 and not self.in_fault and "neo4j_busy" not in text) or \
                    (status == 0 and not self.in_fault):
                self.bad.append(f"{op}: {status} {text[:200]}")


class Workload:
    def __init__(self, servers: Served | Sequence[Served], ledger: Ledger, *, seed: int = 7) -> None:
        self.servers = [servers] if isinstance(servers, Served) else list(servers)
        server = self.server = self.servers[0]
        self.ledger = ledger
        self.rng = random.Random(seed)
        with server.client() as c:
            ns, owner = f"soak-{uuid.uuid4().hex[:8]}", f"owner-{uuid.uuid4().hex[:6]}"
            self.namespace, self.owner = ns, owner
            self.scope = self._ok(c.post("/v1/scopes", json={"namespace": ns, "cognitive_owner": owner,
                                                             "name": "main"}))["id"]
            # A second scope of the same partition where every write waits for approval.
            self.gated = self._ok(c.post("/v1/scopes", json={"namespace": ns, "cognitive_owner": owner,
                                                             "name": "gated"}))["id"]
            assert c.put(f"/v1/scopes/{self.gated}/write-policy",
                         json={"default": "require_approval"}).status_code == 200
        self.feed_state = Path(tempfile.mkstemp(prefix="cognition-feed-", suffix=".jsonl")[1])
        self.consumer: subprocess.Popen[bytes] | None = None
        self.ids: list[str] = []  # acknowledged records of the main scope (some later deleted)
        self.pending: list[str] = []
        self.ids_lock = threading.Lock()

    def start_consumer(self) -> None:
        """The feed consumer (tests/feed_consumer.py), resuming from its state file."""
        self.consumer = subprocess.Popen(
            [sys.executable, "-m", "tests.feed_consumer", str(self.feed_state), self.namespace, self.server.key,
             *(s.url for s in self.servers)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def kill_consumer(self) -> None:
        if self.consumer is not None and self.consumer.poll() is None:
            self.consumer.send_signal(signal.SIGKILL)
            self.consumer.wait(10)

    def drain_consumer(self, timeout: float = 120.0) -> None:
        """Until the consumer has read the whole feed as it is now, then stop it."""
        with self.server.client() as c:
            head = 0
            after: str | None = None
            while True:  # the feed's last position now
                r = c.get("/v1/events", params={"namespace": self.namespace, "limit": 1000,
                                                **({"after": after} if after else {})})
                page = r.json()
                if not page["items"]:
                    break
                head, after = page["items"][-1]["position"], page["next"]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            _, events = read_state(self.feed_state)
            if events and events[-1]["position"] >= head:
                break
            time.sleep(0.2)
        self.kill_consumer()

    @staticmethod
    def _ok(r: httpx.Response) -> dict[str, Any]:
        assert r.status_code in (200, 201), r.text
        body: dict[str, Any] = r.json()
        return body

    def pick(self) -> str | None:
        with self.ids_lock:
            if not self.ids:
                return None
            # A hot set: most traffic goes to the last few records, so updates really race.
            hot = self.ids[-12:]
            return self.rng.choice(hot if self.rng.random() < 0.7 else self.ids)

    def call(self, c: Spread, op: str, method: str, url: str, **kw: Any) -> httpx.Response | None:
        t = time.perf_counter()
        try:
            r = c.request(method, url, **kw)
        except httpx.HTTPError as exc:
            self.ledger.note(op, 0, time.perf_counter() - t, repr(exc))
            return None
        self.ledger.note(op, r.status_code, time.perf_counter() - t, r.text)
        return r

    # -- operations ---------------------------------------------------------------------------------------
    def save(self, c: Spread, *, retry: bool = False, gated: bool = False) -> None:
        key = uuid.uuid4().hex
        scope = self.gated if gated else self.scope
        body = {"kind": self.rng.choice(["semantic", "fact", "episodic", "preference"]), "tier": "agent",
                "content": f"soak record {key[:8]}: the {self.rng.choice(['deploy', '部署', 'build', 'review'])} "
                           f"happens at {self.rng.randint(0, 23)}:00"}
        got: str | None = None
        held = False
        for _attempt in range(3 if retry else 1):  # a retry sends the same key, as a client after a timeout would
            r = self.call(c, "save_retry" if retry else "save", "POST", f"/v1/scopes/{scope}/memories", json=body,
                          headers={"Idempotency-Key": key})
            if r is not None and r.status_code == 201:
                rid = r.json()["id"]
                assert got is None or got == rid, (got, rid)
                got = rid
                held = r.json().get("status") == "pending"
        if got is not None:
            with self.ledger.lock:
                self.ledger.saved[f"{scope}|{key}"] = got
            if held and not gated:
                # the detector quarantined an ordinary text: a pending record is never recalled (loads of it are
                # not counted) and no worker picks it; it stays, acknowledged, for the end-state checks
                return
            if not gated:  # before any other worker can pick (and delete) it
                self.read_own(c, got, key[:8])
            with self.ids_lock:
                (self.pending if gated else self.ids).append(got)

    def read_own(self, c: Spread, rid: str, word: str) -> None:
        """The save just acknowledged, read at once from the next replica: loaded, and every fourth time also found
        by a search for its own words (the copy there brought up to date in the search's own transaction)."""
        saved_on = c.last
        r = self.call(c, "read_own", "GET", f"/v1/scopes/{self.scope}/memories/{rid}")
        with self.ledger.lock:
            if r is None or r.status_code >= 500:
                self.ledger.unknown_recalls[rid] += 1
            elif r.status_code == 200:
                self.ledger.recalls[rid] += 1
            else:
                self.ledger.bad.append(f"read-your-writes: {rid} saved on replica {saved_on}, "
                                       f"{r.status_code} on replica {c.last}")
        if self.rng.random() >= 0.25:
            return
        r = self.call(c, "search_own", "POST", f"/v1/scopes/{self.scope}/memories/search",
                      json={"query": f"soak record {word}", "limit": 5})
        with self.ids_lock:
            maybe = [*self.ids, rid]
        self._hits(r, lambda b: [h["id"] for h in b["items"]], maybe)
        if r is not None and r.status_code == 200 and rid not in [h["id"] for h in r.json()["items"]]:
            with self.ledger.lock:
                self.ledger.bad.append(f"read-your-writes: {rid} saved on replica {saved_on}, not found by a "
                                       f"search on replica {c.last}")

    def update(self, c: Spread) -> None:
        rid = self.pick()
        if rid is None:
            return
        path = f"/v1/scopes/{self.scope}/memories/{rid}"
        head = self.call(c, "load", "GET", path)
        if head is None or head.status_code != 200:
            if head is None or head.status_code >= 500:
                with self.ledger.lock:
                    self.ledger.unknown_recalls[rid] += 1
            return
        with self.ledger.lock:
            self.ledger.recalls[rid] += 1  # the load before an edit is a recall too
        r = self.call(c, "update", "PATCH", path, json={"content": f"edited {uuid.uuid4().hex[:6]}"},
                      headers={"If-Match": head.headers["ETag"]})
        with self.ledger.lock:
            if r is None or r.status_code >= 500:
                self.ledger.unknown_updates[rid] += 1
            elif r.status_code == 200:
                self.ledger.updates[rid] += 1

    def load(self, c: Spread) -> None:
        rid = self.pick()
        if rid is None:
            return
        r = self.call(c, "load", "GET", f"/v1/scopes/{self.scope}/memories/{rid}")
        with self.ledger.lock:
            if r is None or r.status_code >= 500:
                self.ledger.unknown_recalls[rid] += 1
            elif r.status_code == 200:
                self.ledger.recalls[rid] += 1

    def _hits(self, r: httpx.Response | None, ids: Callable[[dict[str, Any]], list[str]], maybe: list[str]) -> None:
        with self.ledger.lock:
            if r is None or r.status_code >= 500:
                for rid in maybe:  # any of them might have been counted
                    self.ledger.unknown_recalls[rid] += 1
            elif r.status_code == 200:
                for rid in ids(r.json()):
                    self.ledger.recalls[rid] += 1

    def search(self, c: Spread) -> None:
        q = self.rng.choice(["deploy", "部署", "build happens", "review"])
        r = self.call(c, "search", "POST", f"/v1/scopes/{self.scope}/memories/search", json={"query": q, "limit": 5})
        with self.ids_lock:
            maybe = list(self.ids)
        self._hits(r, lambda b: [h["id"] for h in b["items"]], maybe)

    def context(self, c: Spread) -> None:
        r = self.call(c, "context", "POST", f"/v1/scopes/{self.scope}/context",
                      json={"surface": "all", "query": "deploy", "limits": {"relevant_memories": 3}})
        with self.ids_lock:
            maybe = list(self.ids)
        self._hits(r, lambda b: list({a["id"] for items in b["arms"].values() for a in items
                                      if a.get("family") == "memory"}), maybe)

    def delete(self, c: Spread) -> None:
        rid = self.pick()
        if rid is None:
            return
        detach = self.rng.random() < 0.5
        r = self.call(c, "delete", "DELETE", f"/v1/scopes/{self.scope}/memories/{rid}",
                      params={"detach": "true"} if detach else {})
        with self.ledger.lock:
            if r is None or r.status_code >= 500:
                self.ledger.unknown_deleted.add(rid)
            elif r.status_code == 200:
                self.ledger.deleted.add(rid)

    def edge(self, c: Spread) -> None:
        a, b = self.pick(), self.pick()
        if a is None or b is None or a == b:
            return
        self.call(c, "edge", "POST", f"/v1/scopes/{self.scope}/edges",
                  json={"type": self.rng.choice(["DEPENDS_ON", "SUPPORTS", "DERIVED_FROM"]), "from_id": a, "to_id": b})

    def restore(self, c: Spread) -> None:
        rid = self.pick()
        if rid is not None:
            self.call(c, "restore", "POST", f"/v1/scopes/{self.scope}/memories/{rid}/restore", json={})

    def approve(self, c: Spread) -> None:
        with self.ids_lock:
            rid = self.pending.pop() if self.pending and self.rng.random() < 0.8 else None
        if rid is None:
            self.save(c, gated=True)
            return
        self.call(c, "approve", "POST", f"/v1/scopes/{self.gated}/memories/{rid}/approve", json={})

    def digest(self, c: Spread) -> None:
        self.call(c, "digest", "POST", "/v1/digest/passes",
                  json={"namespace": self.namespace, "cognitive_owner": self.owner, "phases": ["archive"]})

    def gc(self, c: Spread) -> None:
        self.call(c, "gc", "POST", "/v1/gc/runs", json={"namespace": self.namespace, "cognitive_owner": self.owner})

    def step(self, c: Spread) -> None:
        op = self.rng.choices(OPS, WEIGHTS)[0]
        if op in ("save", "save_retry"):
            self.save(c, retry=op == "save_retry")
        else:
            getattr(self, op)(c)

    def run(self, seconds: float, faults: Callable[[], threading.Thread] | None = None) -> float:
        stop = threading.Event()
        with Spread(self.servers) as c:
            for _ in range(10):  # something to work on from the first second
                self.save(c)

        def worker(i: int) -> None:
            rng_seeded = random.Random(i)
            with Spread(self.servers, start=i) as c:
                while not stop.is_set():
                    self.step(c)
                    if rng_seeded.random() < 0.02:
                        time.sleep(0.05)

        threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(WORKERS)]
        started = time.monotonic()
        self.start_consumer()
        for t in threads:
            t.start()
        injector = faults() if faults is not None else None
        restarted = False
        while time.monotonic() - started < seconds:
            time.sleep(0.2)
            if not restarted and time.monotonic() - started > seconds / 2:  # SIGKILL the consumer, resume it
                self.kill_consumer()
                self.start_consumer()
                restarted = True
        if injector is not None:  # the load goes on until every fault has been injected and recovered from
            injector.join(900)
            assert not injector.is_alive(), "the fault injector did not finish"
        stop.set()
        for t in threads:
            t.join(180)
        took = time.monotonic() - started
        self.drain_consumer()
        return took


def check_feed(raw: Driver, w: Workload) -> list[str]:
    """The consumer's events: the namespace's whole feed once, in order, every acknowledged save in it."""
    problems: list[str] = []
    _, events = read_state(w.feed_state)
    positions = [e["position"] for e in events]
    if positions != list(range(1, len(positions) + 1)):
        problems.append(f"feed consumer: positions not 1..n once each ({len(positions)} events)")
    feed = raw.execute_query("MATCH (e:Event {namespace: $ns}) WHERE e.position IS NOT NULL "
                             "RETURN e.id AS id ORDER BY e.position", ns=w.namespace).records
    if [e["id"] for e in events] != [r["id"] for r in feed]:
        problems.append(f"feed consumer: {len(events)} events, the feed has {len(feed)} (or in another order)")
    saves = Counter(e["record_id"] for e in events if e["kind"] in ("save", "quarantine"))
    for key, rid in w.ledger.saved.items():
        if saves.get(rid) != 1:
            problems.append(f"feed consumer: acknowledged save {key} -> {rid} seen {saves.get(rid, 0)} times")
    return problems


def check(raw: Driver, w: Workload, *, faults: bool) -> list[str]:
    """The invariants; an empty list when all hold."""
    led, problems = w.ledger, list(w.ledger.bad)
    problems += check_feed(raw, w)
    scopes = [w.scope, w.gated]
    # Every acknowledged save exists exactly once.
    rows = raw.execute_query("MATCH (n) WHERE n.scope_id IN $scopes AND (n:Artifact OR n:Tombstone) "
                             "RETURN n.id AS id, count(*) AS c", scopes=scopes).records
    nodes = {r["id"]: r["c"] for r in rows}
    for key, rid in led.saved.items():
        if nodes.get(rid) != 1:
            problems.append(f"acknowledged save {key} -> {rid} stored {nodes.get(rid, 0)} times")
    stored_ids = set(nodes)
    kernels = {r["id"] for r in raw.execute_query(
        "MATCH (k:Artifact) WHERE k.scope_id IN $scopes AND k.family IN ['agent_kernel', 'world_kernel'] "
        "RETURN k.id AS id", scopes=scopes).records}
    if not faults:  # without faults every save was answered, so nothing exists that was not acknowledged
        extra = stored_ids - set(led.saved.values()) - kernels
        if extra:
            problems.append(f"{len(extra)} records nobody was told about: {sorted(extra)[:3]}")
    # Revisions: 1..k, no gap or repeat; k - 1 = acknowledged updates (+ unknown ones under faults).
    revs = raw.execute_query(
        "MATCH (a:Memory) WHERE a.scope_id = $s OPTIONAL MATCH (a)-[:HAS_REVISION]->(r:Revision) "
        "RETURN a.id AS id, a.revision AS rev, a.recall_count AS recalls, collect(r.revision) AS chain",
        s=w.scope).records
    for r in revs:
        chain = sorted(r["chain"])
        if chain != list(range(1, r["rev"] + 1)):
            problems.append(f"{r['id']}: revision chain {chain} for revision {r['rev']}")
        done, maybe = led.updates[r["id"]], led.unknown_updates[r["id"]]
        if not done <= r["rev"] - 1 <= done + maybe:
            problems.append(f"{r['id']}: revision {r['rev']} after {done} acknowledged (+{maybe} unknown) updates")
        got, acked, unknown = r["recalls"] or 0, led.recalls[r["id"]], led.unknown_recalls[r["id"]]
        if not acked <= got <= acked + unknown:
            problems.append(f"{r['id']}: recall_count {got}, acknowledged recalls {acked} (+{unknown} unknown)")
    # Nothing both archived and active; no edge across scopes.
    both = raw.execute_query(
        "MATCH (n) WHERE n.scope_id IN $scopes AND ((n:Artifact AND n:Tombstone) "
        "OR (n:Artifact AND n.status = 'active' AND n.archived_at IS NOT NULL) "
        "OR (n:Artifact AND n.status = 'removed') "
        "OR (n:Tombstone AND n.status <> 'removed')) RETURN count(n) AS c", scopes=scopes).records[0]["c"]
    if both:
        problems.append(f"{both} records are both archived and active (or artifact and tombstone)")
    cross = raw.execute_query(
        "MATCH (a)-[r]->(b) WHERE a.scope_id IN $scopes AND b.scope_id IS NOT NULL AND a.scope_id <> b.scope_id "
        "RETURN count(r) AS c", scopes=scopes).records[0]["c"]
    if cross:
        problems.append(f"{cross} edges cross scopes")
    for rid in led.deleted:
        if nodes.get(rid) != 1:
            problems.append(f"deleted {rid} left {nodes.get(rid, 0)} tombstones")
    return problems


def report(led: Ledger, seconds: float) -> str:
    lines = [f"{'op':<12}{'count':>8}{'ops/s':>9}{'p50 ms':>9}{'p95 ms':>9}  statuses"]
    total = 0
    for op in OPS + ("read_own", "search_own"):
        lat = led.latencies.get(op)
        if not lat or op in [ln.split()[0] for ln in lines[1:]]:
            continue
        total += len(lat)
        lat_ms = sorted(x * 1000 for x in lat)
        p95 = lat_ms[min(len(lat_ms) - 1, int(0.95 * len(lat_ms)))]
        st = ", ".join(f"{s}×{n}" for (o, s), n in sorted(led.statuses.items()) if o == op)
        lines.append(f"{op:<12}{len(lat):>8}{len(lat) / seconds:>9.1f}{statistics.median(lat_ms):>9.1f}"
                     f"{p95:>9.1f}  {st}")
    lines.append(f"{'all':<12}{total:>8}{total / seconds:>9.1f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """`make soak`: a Neo4j of its own (ports 37687/37474), the served process, the workload, faults, checks."""

    from neo4j import GraphDatabase

    from graph.driver import Neo4jConfig
    from service import neo4j_local

    ap = argparse.ArgumentParser(prog="soak")
    ap.add_argument("--seconds", type=float, default=float(os.environ.get("SOAK_S", "300")))
    ap.add_argument("--no-faults", action="store_true")
    ap.add_argument("--replicas", type=int, default=int(os.environ.get("SOAK_REPLICAS", str(REPLICAS))))
    args = ap.parse_args(argv)
    inst = neo4j_local.LocalInstance("soak", 37687, 37474, os.environ.get("COGNITION_NEO4J_HEAP", "1g"), "512m")
    password = neo4j_local.start(inst, fresh=True)
    cfg = Neo4jConfig(inst.uri, "neo4j", password)
    key = "cog_soak_" + uuid.uuid4().hex
    servers = [Served(cfg, key) for _ in range(max(1, args.replicas))]
    try:
        for server in servers:
            server.start()
        ledger = Ledger()
        w = Workload(servers, ledger)
        fault = None if args.no_faults else _faults(servers, ledger, args.seconds,
                                                    lambda: neo4j_local.stop(inst),
                                                    lambda: neo4j_local.start(inst))
        took = w.run(args.seconds, fault)
        print(report(ledger, took))
        with GraphDatabase.driver(cfg.uri, auth=(cfg.user, cfg.password)) as raw:
            problems = check(raw, w, faults=not args.no_faults)
    finally:
        for server in servers:
            server.stop()
        neo4j_local.stop(inst)
    for p in problems[:50]:
        print("FAIL", p)
    print(f"soak: {took:.0f} s, {len(servers)} replica(s), {'with' if not args.no_faults else 'without'} faults: "
          f"{'all invariants hold' if not problems else f'{len(problems)} problems'}")
    return 1 if problems else 0


def _faults(servers: Served | Sequence[Served], ledger: Ledger, seconds: float, stop_db: Callable[[], Any],
            start_db: Callable[[], Any]) -> Callable[[], threading.Thread]:
    """Restart Neo4j at a third of the run and SIGKILL one replica (the last) at two thirds (in a thread)."""
    replicas = [servers] if isinstance(servers, Served) else list(servers)

    def inject() -> None:
        time.sleep(seconds / 3)
        ledger.in_fault = True
        stop_db()
        time.sleep(2)
        start_db()
        for replica in replicas:
            replica.wait_ready(120)
        time.sleep(1)
        ledger.in_fault = False
        time.sleep(max(0.0, seconds / 3 - 3))
        ledger.in_fault = True
        replicas[-1].kill()
        time.sleep(0.5)
        replicas[-1].start()
        time.sleep(1)
        ledger.in_fault = False
        injected.append("neo4j restart")
        injected.append("service SIGKILL")

    injected: list[str] = []

    def start() -> threading.Thread:
        t = threading.Thread(target=inject, daemon=True)
        t.start()
        return t

    return start


if __name__ == "__main__":
    sys.exit(main())
