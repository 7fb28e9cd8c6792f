"""The process's runtime: what one `cognition serve` (or `cognition mcp`, or a Python caller) holds for its life,
built once at start-up and handed to every use case — the graph, the key verifier and its caches, the embedder,
the learned detector's thresholds, the scope copies (which carry the lexical analysis), the kernel ids it has
looked up, the ranking parameters, the GC configuration and the clock. Nothing of it is a module global, so two
runtimes in one process (a test, an evaluation comparing analyses) never see each other's state."""

from __future__ import annotations

import dataclasses
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import InitVar, dataclass, field
from datetime import UTC, datetime

from digest.gc import GCConfig
from graph.driver import Graph, Neo4jConfig
from graph.schema import Guard, detect_guard
from service.gates import detector, encoder
from service.gates.pipeline import Thresholds
from service.search import embedding
from service.search.embedding import Embedder
from service.search.ranking import DEFAULT, RankingParams
from service.search.scope_index import ScopeIndexes
from service.settings import Settings
from service.usecases.access import KEY_CACHE_TTL, Authenticator
from service.usecases.limits import Limit, Limits, RateLimiter


def utcnow() -> datetime:
    return datetime.now(UTC)


class KernelIds:
    """A scope's kernels are created with it and never replaced, so their ids are safe to remember: after the first
    look-up a kernel operation is one round trip. Bounded; a deleted scope's entry only leads to a 404 later."""

    def __init__(self, max_scopes: int = 10_000) -> None:
        self._ids: OrderedDict[str, tuple[str, str]] = OrderedDict()
        self._max = max_scopes

    def get(self, scope_id: str) -> tuple[str, str] | None:
        return self._ids.get(scope_id)

    def put(self, scope_id: str, ids: tuple[str, str]) -> None:
        self._ids[scope_id] = ids
        while len(self._ids) > self._max:
            self._ids.popitem(last=False)


def neo4j_config(settings: Settings) -> Neo4jConfig:
    """The Neo4j the settings name (`cognition serve` sets them for the managed local Neo4j)."""
    if not settings.neo4j_uri or not settings.neo4j_password:
        raise RuntimeError("NEO4J_URI and NEO4J_PASSWORD must be set (the `cognition serve` command sets them "
                           "for the managed local Neo4j)")
    return Neo4jConfig(settings.neo4j_uri, settings.neo4j_user, settings.neo4j_password, settings.neo4j_database)


def rate_limits(settings: Settings) -> Limits:
    def limit(rate: float) -> Limit:
        return Limit(rate, settings.rate_burst_s)

    return Limits(limit(settings.rate_key_reads), limit(settings.rate_key_writes),
                  limit(settings.rate_namespace_reads), limit(settings.rate_namespace_writes))


def thresholds(settings: Settings) -> Thresholds:
    """The learned detector's thresholds the settings name. Its encoder (~1 s) and language identifier (~0.6 s) start
    loading here, side by side in the background: the process is ready without waiting for them, and a text that
    needs one before it is in waits for it (each loads under a lock), so no text is ever judged without them."""
    in_background(encoder.load, detector.load)
    return Thresholds.of(settings.injection_refuse_at, settings.injection_hold_at,
                         settings.injection_encoder_refuse_at, settings.injection_encoder_hold_at,
                         settings.injection_long_hold_at, settings.injection_short_hold_at,
                         settings.injection_short_ask_at, settings.injection_chinese_hold_at,
                         settings.injection_lite_ask_at)


# While loads run in the background, the interpreter hands its lock from thread to thread this often (Python's
# default is 5 ms): the serving thread, back from a Neo4j round trip, then waits ~0.5 ms for a loader's Python work to
# let it go rather than up to 5 ms, which start-up and the first requests pay on every round trip. The interval is the
# process's, not a runtime's, so the count of loads running is too.
LOADING_SWITCH_S = 0.0005
_loading = threading.Lock()
_loads_running = 0
_switch_before = 0.0


def in_background(*loads: Callable[[], None]) -> None:
    """Run `loads` side by side on threads of their own, with the interpreter's switch interval at LOADING_SWITCH_S
    until the last load running in the process ends (then back to what it was). The interpreter waits for them at
    exit: a command that ends before a load does (a CLI call that needed no gate) must not leave a native library
    mid-load while the process tears down (sentencepiece's then aborts it)."""
    global _loads_running, _switch_before

    def run(load: Callable[[], None]) -> None:
        global _loads_running
        try:
            load()
        finally:
            with _loading:
                _loads_running -= 1
                if _loads_running == 0:
                    sys.setswitchinterval(_switch_before)

    with _loading:
        if _loads_running == 0:
            _switch_before = sys.getswitchinterval()
            sys.setswitchinterval(LOADING_SWITCH_S)
        _loads_running += len(loads)
    for load in loads:
        threading.Thread(target=run, args=(load,), name=f"load-{load.__module__}", daemon=False).start()


def gc_config(settings: Settings) -> GCConfig:
    return GCConfig(max_entries=settings.gc_max_entries, ttl_batch=settings.gc_ttl_batch)


@dataclass(slots=True)
class Runtime:
    graph: Graph
    embedder: Embedder | None = None
    thresholds: Thresholds = field(default_factory=Thresholds.of)
    indexes: ScopeIndexes = field(default_factory=ScopeIndexes)
    kernels: KernelIds = field(default_factory=KernelIds)
    ranking: RankingParams = DEFAULT
    gc: GCConfig = field(default_factory=GCConfig)
    clock: Callable[[], datetime] = utcnow
    # Who enforces the scope invariants (graph/schema.py): "trigger" or "queries"; decided at start.
    scope_guard: Guard = "trigger"
    key_cache_ttl: InitVar[float] = KEY_CACHE_TTL
    auth: Authenticator = field(init=False)  # verifies keys; caches them and each scope's namespace
    # Per key and per namespace, in this process (service/usecases/limits.py); off unless the settings set rates.
    limiter: RateLimiter = field(default_factory=lambda: RateLimiter(Limits.off()))

    def __post_init__(self, key_cache_ttl: float) -> None:
        self.auth = Authenticator(self.graph, ttl=key_cache_ttl)

    @classmethod
    async def start(cls, graph: Graph, settings: Settings, *, guard: Guard | None = None) -> Runtime:
        """The runtime the settings describe: their key cache, their embedder (and the vector index sized to it),
        their detector thresholds, their GC configuration, their scope guard (`guard`, as applying the schema found
        it, else as the server allows it)."""
        embedder = embedding.make_embedder(settings.embedder)
        if embedder is not None:
            await embedding.ensure_vector_index(graph, embedder)
        guard = guard or await detect_guard(graph, settings.scope_guard)
        return cls(graph, key_cache_ttl=settings.key_cache_ttl, embedder=embedder, scope_guard=guard,
                   indexes=ScopeIndexes(max_bytes=settings.scope_copies_mb * 2**20),
                   thresholds=thresholds(settings),
                   gc=gc_config(settings), limiter=RateLimiter(rate_limits(settings)))

    def using(self, *, embedder: Embedder | None) -> Runtime:
        """This runtime with another embedder, sharing its scope copies (they are kept per embedding model) and
        its key verifier."""
        other = dataclasses.replace(self, embedder=embedder, key_cache_ttl=self.auth.ttl)
        other.auth = self.auth
        return other
