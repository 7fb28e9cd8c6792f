"""What every benchmark shares: the run context (one Graph, the raw driver, unique scopes), sizes, timing,
percentiles, result rows and the deterministic text generator."""

from __future__ import annotations

import math
import random
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, fields, replace
from typing import Any

from neo4j import AsyncDriver, RoutingControl

import cypher
from cognition.schemas.records import MemoryCreate, WriteBody
from graph.driver import Graph, Neo4jConfig
from graph.model import Kind, Tier
from service.usecases.artifacts import to_row
from service.usecases.drafts import draft_of
from service.usecases.runtime import Runtime, utcnow
from service.usecases.scopes import create_scope

ACTOR = "bench"


# ---- sizes -----------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Sizes:
    single: int = 300                        # save_single: measured saves per side
    batches: int = 10                        # save_batch: measured batches per side
    batch_size: int = 1000                   # save_batch: memories per batch (MAX_BATCH is 1000)
    search: tuple[int, ...] = (10_000, 100_000)  # search: scope sizes, filled cumulatively
    queries: int = 200                       # search: measured searches per side and size
    scan_texts: int = 300                    # scan: 10 KB texts per flavour for MB/s
    gated: int = 200                         # scan: measured saves per side (gated / bypassed)
    digest: tuple[int, ...] = (100_000, 200_000)  # digest_pass: partition sizes (3 edges per artifact)
    context: tuple[int, ...] = (100_000,)    # context: scope sizes, filled cumulatively (e.g. 10000/100000)
    hybrid: int = 5_000                      # hybrid: memories saved (and embedded) through the service
    gc: int = 100_000                        # gc: memories in the partition
    shapes: int = 100_000                    # shapes: memories in each shape's scope
    shape_queries: int = 100                 # shapes: measured calls per surface and shape (a p95 of 40 is
                                             # their second slowest, of 100 the fifth)
    agent_seconds: int = 8                   # agents: seconds each cell (operation, layout, clients) is timed
    starts: int = 7                          # startup: timed starts of cognition serve
    cold: tuple[int, ...] = (100_000,)       # cold_copy: scope sizes, filled cumulatively (e.g. 100000/1000000)
    as_of: int = 100_000                     # as_of: memories in the scope read at a moment of valid time
    rate_seconds: int = 60                   # rate_limits: the accuracy window (the fairness phases take half)

    @classmethod
    def quick(cls) -> Sizes:
        return cls(single=40, batches=3, batch_size=200, search=(2_000,), queries=40, scan_texts=40, gated=40,
                   digest=(5_000, 10_000), context=(5_000,), hybrid=300, gc=5_000, shapes=3_000,
                   shape_queries=10, agent_seconds=1, starts=2, cold=(5_000,), as_of=3_000, rate_seconds=10)

    def override(self, spec: str) -> Sizes:
        """`single=300,batches=10,batch_size=1000,search=10000/100000,queries=200,scan_texts=300,gated=200`"""
        known = {f.name for f in fields(self)}
        changes: dict[str, Any] = {}
        for item in filter(None, (s.strip() for s in spec.split(","))):
            key, sep, value = item.partition("=")
            if not sep or key not in known:
                raise ValueError(f"--sizes: {item!r} is not KEY=VALUE, KEY one of {', '.join(sorted(known))}")
            if key in ("search", "digest", "context", "cold"):
                changes[key] = tuple(int(v) for v in value.split("/") if v)
            else:
                changes[key] = int(value)
        return replace(self, **changes)


# ---- results ---------------------------------------------------------------------------------------------

@dataclass(slots=True)
class Row:
    """One line of the result table. `target` is None for informational rows (no verdict)."""

    bench: str
    metric: str
    service: float | None
    raw: float | None
    unit: str
    target: str | None = None
    ok: bool | None = None

    @property
    def ratio(self) -> float | None:
        if self.service is None or self.raw is None or self.raw == 0:
            return None
        return self.service / self.raw


def pct(samples_ns: list[int], p: float) -> float:
    """Nearest-rank percentile, in milliseconds."""
    s = sorted(samples_ns)
    return s[max(0, math.ceil(p * len(s)) - 1)] / 1e6


def latency_rows(bench: str, what: str, svc_ns: list[int], raw_ns: list[int], max_ratio: float,
                 *, raw_label: str = "raw") -> list[Row]:
    """p50 and p95 rows; each passes when service ≤ max_ratio × raw."""
    out = []
    for p in (0.50, 0.95):
        svc, raw = pct(svc_ns, p), pct(raw_ns, p)
        ok = svc <= max_ratio * raw
        out.append(Row(bench, f"{what} p{int(p * 100)} (n={len(svc_ns)})", svc, raw, "ms",
                       f"<= {max_ratio:g}x {raw_label}", ok))
    return out


def throughput_row(bench: str, what: str, svc_rows: int, svc_ns: int, raw_rows: int, raw_ns: int,
                   min_ratio: float) -> Row:
    svc, raw = svc_rows / (svc_ns / 1e9), raw_rows / (raw_ns / 1e9)
    return Row(bench, what, svc, raw, "rows/s", f">= {min_ratio:g}x raw", svc >= min_ratio * raw)


# ---- timing ----------------------------------------------------------------------------------------------

Step = Callable[[int], Awaitable[Any]]


async def timed(step: Step, i: int) -> int:
    t0 = time.perf_counter_ns()
    await step(i)
    return time.perf_counter_ns() - t0


async def interleaved(n: int, service: Step, raw: Step, *, start: int = 0) -> tuple[list[int], list[int]]:
    """Run service(i) and raw(i) for i in [start, start+n), alternating which goes first so neither side
    always finds the caches the other warmed. Returns the two lists of nanoseconds."""
    svc_ns: list[int] = []
    raw_ns: list[int] = []
    for i in range(start, start + n):
        if i % 2 == 0:
            svc_ns.append(await timed(service, i))
            raw_ns.append(await timed(raw, i))
        else:
            raw_ns.append(await timed(raw, i))
            svc_ns.append(await timed(service, i))
    return svc_ns, raw_ns


# ---- the run context -------------------------------------------------------------------------------------

@dataclass(slots=True)
class Context:
    """The service's runtime (on one Graph) and, for the baselines, its async driver used raw (same pool, same
    database)."""

    graph: Graph
    sizes: Sizes
    run_id: str = field(default_factory=lambda: uuid.uuid4().hex[:8])
    cfg: Neo4jConfig | None = None  # how to reach the same server from another process (bench/save_http.py)
    rt: Runtime = field(init=False)

    def __post_init__(self) -> None:
        self.rt = Runtime(self.graph)

    @property
    def driver(self) -> AsyncDriver:
        return self.graph.driver

    async def raw_write(self, cypher: str, **params: Any) -> Any:
        return await self.driver.execute_query(cypher, params, database_=self.graph.database,
                                               routing_=RoutingControl.WRITE)

    async def raw_read(self, cypher: str, **params: Any) -> Any:
        return await self.driver.execute_query(cypher, params, database_=self.graph.database,
                                               routing_=RoutingControl.READ)

    async def new_scope(self, bench: str) -> str:
        scope = await create_scope(self.rt, namespace="bench", cognitive_owner=f"run-{self.run_id}",
                                   name=f"{bench}-{uuid.uuid4().hex[:6]}", actor=ACTOR)
        return str(scope["id"])


# A fill of memories written raw (raw_props rows): the rows as they are, and the marker the save derives from them
# (cypher/fragments/ranked.cypher), so the context arms and the recall writes see what the service would have made.
RAW_FILL = cypher.compose_text("UNWIND $rows AS r CREATE (a:Artifact:Memory) SET a = r SET a.ranked = {{RANKED}}")


def raw_props(body: WriteBody, scope_id: str) -> dict[str, Any]:
    """Exactly the property map the service stores for this body (service.usecases.artifacts.to_row + the status
    save.cypher sets), with a fresh id: what the raw baselines CREATE."""
    props: dict[str, Any] = to_row(draft_of(body), scope_id=scope_id, now=utcnow(), actor=ACTOR)["props"]
    props["status"] = "active"
    return props


# ---- deterministic text ----------------------------------------------------------------------------------

EN_WORDS = (
    "the", "user", "prefers", "dark", "mode", "and", "short", "answers", "deploy", "service", "database",
    "index", "query", "cache", "latency", "timeout", "retry", "build", "test", "release", "branch", "merge",
    "review", "config", "token", "budget", "schedule", "meeting", "report", "customer", "invoice",
    "payment", "refund", "order", "shipping", "address", "email", "phone", "project", "deadline",
    "milestone", "task", "bug", "fix", "patch", "upgrade", "version", "python", "rust", "java",
    "kubernetes", "docker", "cluster", "node", "pod", "memory", "disk", "network", "region", "backup",
    "restore", "migration", "schema", "table", "column", "row", "graph", "search", "ranking", "model",
    "prompt", "agent", "tool", "weather", "travel", "flight", "hotel", "dinner", "recipe", "coffee", "tea",
    "music", "movie", "book", "garden", "running", "yoga", "weekend", "morning", "evening", "always",
    "never", "usually", "sometimes", "prefers", "likes", "dislikes", "remembers", "asked", "said", "wants",
    "needs", "uses", "runs", "on", "in", "at", "with", "for", "from", "about", "after", "before", "during",
    "because", "when", "while",
)
ZH_WORDS = (
    "用户", "喜欢", "深色", "模式", "简短", "回答", "部署", "服务", "数据库", "索引", "查询", "缓存",
    "延迟", "超时", "重试", "构建", "测试", "发布", "分支", "合并", "评审", "配置", "预算", "日程",
    "会议", "报告", "客户", "发票", "付款", "退款", "订单", "地址", "邮箱", "电话", "项目", "截止",
    "日期", "任务", "修复", "补丁", "升级", "版本", "集群", "节点", "内存", "磁盘", "网络", "区域",
    "备份", "恢复", "迁移", "表格", "搜索", "排序", "模型", "工具", "天气", "旅行", "航班", "酒店",
    "晚餐", "菜谱", "咖啡", "茶", "音乐", "电影", "书籍", "花园", "跑步", "瑜伽", "周末", "早上",
    "晚上", "总是", "从不", "通常", "有时", "上海", "北京", "深圳", "杭州", "团队", "同事", "经理",
)
# Rare words: each lands in about 0.05% of memories (~5 per 10k), so marker queries have a handful of hits.
MARKERS = ("zephyrquartz", "obsidianfalcon", "quokkamesh", "vantablack", "饕餮", "麒麟", "蹀躞", "魑魅")
MARKER_RATE = 0.0002  # per sentence and marker; a memory has 2.5 sentences on average
KINDS = tuple(Kind)
TIERS = (Tier.session, Tier.agent, Tier.role)


class TextGen:
    """Realistic-looking mixed Chinese/English memories, deterministic for a seed."""

    def __init__(self, seed: int = 42) -> None:
        self.rnd = random.Random(seed)

    def _en(self, n: int) -> str:
        words = [self.rnd.choice(EN_WORDS) for _ in range(n)]
        return " ".join(words).capitalize() + "."

    def _zh(self, n: int) -> str:
        return "".join(self.rnd.choice(ZH_WORDS) for _ in range(n)) + "。"

    def sentence(self) -> str:
        r = self.rnd.random()
        if r < 0.4:
            s = self._en(self.rnd.randint(6, 16))
        elif r < 0.75:
            s = self._zh(self.rnd.randint(4, 10))
        else:  # code-switched, as bilingual agents write
            s = f"{self._zh(self.rnd.randint(2, 5))[:-1]} {self.rnd.choice(EN_WORDS)} {self._zh(2)}"
        if self.rnd.random() < MARKER_RATE * len(MARKERS):
            s = f"{s} {self.rnd.choice(MARKERS)}"
        return s

    def content(self) -> str:
        return " ".join(self.sentence() for _ in range(self.rnd.randint(1, 4)))

    def memory(self, content: str | None = None) -> MemoryCreate:
        rnd = self.rnd
        content = content or self.content()
        tags = rnd.sample(EN_WORDS[:60], rnd.randint(0, 3))
        # A caller-named subject ("coffee-morning") on 30%; the service derives the others' from the text.
        subject = f"{rnd.choice(EN_WORDS)}-{rnd.choice(EN_WORDS)}" if rnd.random() < 0.3 else None
        return MemoryCreate(kind=rnd.choice(KINDS), tier=rnd.choice(TIERS), content=content, tags=tags,
                            subject=subject, trust=round(rnd.random(), 2))

    def query(self) -> str:
        r = self.rnd.random()
        if r < 0.4:
            return self.rnd.choice(MARKERS)
        if r < 0.7:
            pool = EN_WORDS[:80] + ZH_WORDS
            return " ".join(self.rnd.choice(pool) for _ in range(self.rnd.randint(1, 2)))
        words = [self.rnd.choice(EN_WORDS), self.rnd.choice(ZH_WORDS), self.rnd.choice(MARKERS),
                 self.rnd.choice(ZH_WORDS + EN_WORDS)]
        self.rnd.shuffle(words)
        return " ".join(words[: self.rnd.randint(3, 4)])


def progress(msg: str) -> None:
    import sys

    print(f"[bench] {msg}", file=sys.stderr, flush=True)
