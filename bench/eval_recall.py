"""`python -m bench.eval_recall [--quick] [--configs NAME,…] [--noise N]` — recall on real conversations.

Starts its own Neo4j (the managed `eval` instance, ports COGNITION_EVAL_PORTS, default 37687,37474, fresh) —
or uses COGNITION_EVAL_NEO4J_URI with COGNITION_EVAL_NEO4J_PASSWORD — applies the schema and:

1. saves every turn of the LoCoMo dev split (bench/eval_data.py; Maharana et al., ACL 2024, CC BY-NC 4.0,
   read from ../shared/data/locomo-dev.json or COGNITION_EVAL_DATA) as an `episodic` memory, one scope per
   conversation, batch saves of up to 1,000 turns in order, through the service's own save path
   (service.usecases.artifacts.save: gates, embedding, persist) — once without vectors and once per embedder used;
2. searches every scorable question through the code path of `POST …/memories/search`
   (service.usecases.artifacts.search_ranked; recall=False so the store is the same for every configuration) and
   reports hit@5 / hit@10 per category and overall, with search p50 / p95, for each configuration;
3. computes a plain Okapi BM25 baseline (rank_bm25, lower-cased [a-z0-9]+ tokens, one conversation at a time)
   over the same texts in the same run;
4. writes `--noise` short memories (default 100,000) into another tenant's scope — raw `UNWIND` batches of
   exactly the properties the service stores (bench.common.raw_props), so seeding takes minutes, not the save
   path's hour — and measures the default and the Lucene full-text configuration again: the noisy store;
5. runs the Chinese check: tests/data/retrieval_set.json (self-written for this project, see its `about`),
   recall@5 of its Chinese and English queries per configuration.

Embedders' vectors are memoised on disk (bench/eval_cache.py) so a second run takes minutes, not tens of them;
search latencies therefore exclude the query's model call, which is reported on its own.
Results: a table on stdout, JSON in .cognition/eval/results.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import re
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from bench import eval_data
from bench.common import TextGen, pct, raw_props
from bench.eval_cache import CachedEmbedder
from cognition.schemas.records import MemoryCreate
from graph.driver import Graph, Neo4jConfig
from graph.model import Family
from graph.schema import apply_schema
from service import neo4j_local
from service.search import lexical, ranking
from service.search.embedding import Embedder, make_embedder
from service.search.scope_index import ScopeIndexes
from service.usecases import artifacts as use
from service.usecases.drafts import draft_of
from service.usecases.runtime import Runtime
from service.usecases.scopes import create_scope
from service.usecases.timeview import CURRENT, TimeView

ACTOR = "eval"
ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / ".cognition" / "eval" / "results.json"
RETRIEVAL_SET = ROOT / "tests" / "data" / "retrieval_set.json"
_eval_bolt, _eval_http, _eval_service = neo4j_local._ports("COGNITION_EVAL_PORTS", 37687, 37474, 37480)
EVAL_INSTANCE = neo4j_local.LocalInstance(
    "eval", _eval_bolt, _eval_http, os.environ.get("COGNITION_NEO4J_HEAP", "1g"),
    os.environ.get("COGNITION_NEO4J_PAGECACHE", "512m"), _eval_service)
LEGACY = replace(ranking.DEFAULT, scope_index=False, min_similarity=0.6)  # the Lucene ranking the scope index replaced


def say(msg: str) -> None:
    print(f"[eval] {msg}", file=sys.stderr, flush=True)


@dataclass(frozen=True, slots=True)
class Config:
    name: str
    embedder: str | None
    params: ranking.RankingParams
    analysis: lexical.Analysis = lexical.Analysis()
    noisy: bool = False  # measured again in the noisy store
    # Dates as fields: each turn saved with occurred_at = its session's date, each question asked with now = the
    # conversation's last session date (docs/time.md; service/search/temporal ranks by them).
    dated: bool = False


def configs(default_embedder: str | None) -> dict[str, Config]:
    d = ranking.DEFAULT
    flat = replace(d, neighbour_weight=0.0, neighbour_weight_2=0.0)
    one = replace(d, neighbour_weight_2=0.0)
    out = [
        Config("lucene full-text (before)", None, LEGACY, noisy=True),
        Config("lucene + use-multilingual (before)", "use-multilingual", LEGACY),
        Config("scope BM25, no stemming, no stop words", None, flat, lexical.Analysis(stem=False, stop=False)),
        Config("scope BM25 + stop words", None, flat, lexical.Analysis(stem=False)),
        Config("scope BM25 + stop words + stemming", None, flat),
        Config("  + neighbour turns ±1 × 0.5", None, one),
        Config("  + neighbour turns ±1 × 0.5, ±2 × 0.25 (COGNITION_EMBEDDER=none)", None, d, noisy=True),
        Config("e5 dense only", "e5-small", replace(d, w_ft=0.0)),
        Config("e5 + lexical default, RRF 1:1", "e5-small", d),
        Config("e5 + lexical default, vector neighbours 0.2, RRF 1:0.5", "e5-small",
               replace(d, neighbour_weight_vec=0.2, w_vec=0.5)),
        Config("DATES AS FIELDS: occurred_at = the session's date, now = the questions' (COGNITION_EMBEDDER=none)",
               None, d, noisy=True, dated=True),
    ]
    if default_embedder is not None:
        out.append(Config(f"DEFAULT (COGNITION_EMBEDDER unset = {default_embedder})", default_embedder, d,
                          noisy=True))
    return {c.name: c for c in out}


# ---- metrics ---------------------------------------------------------------------------------------------

@dataclass(slots=True)
class Score:
    hits5: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))
    hits10: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))
    latency_ns: list[int] = field(default_factory=list)

    def add(self, category: int, found: Sequence[str], evidence: frozenset[str]) -> None:
        self.hits5[category].append(int(bool(evidence & set(found[:5]))))
        self.hits10[category].append(int(bool(evidence & set(found[:10]))))

    def summary(self) -> dict[str, Any]:
        def mean(xs: Sequence[int]) -> float:
            return sum(xs) / len(xs) if xs else 0.0
        every5 = [h for v in self.hits5.values() for h in v]
        every10 = [h for v in self.hits10.values() for h in v]
        out: dict[str, Any] = {"n": len(every10), "hit@5": mean(every5), "hit@10": mean(every10)}
        for cat, name in eval_data.CATEGORIES.items():
            out[f"{name} hit@10"] = mean(self.hits10.get(cat, []))
            out[f"{name} hit@5"] = mean(self.hits5.get(cat, []))
        if self.latency_ns:
            out["p50 ms"], out["p95 ms"] = pct(self.latency_ns, 0.5), pct(self.latency_ns, 0.95)
        return out


def bm25_baseline(convs: Sequence[eval_data.Conversation]) -> dict[str, Any]:
    from rank_bm25 import BM25Okapi

    def tok(text: str) -> list[str]:
        return re.findall(r"[a-z0-9]+", text.lower())

    score = Score()
    for conv in convs:
        bm = BM25Okapi([tok(t.text) for t in conv.turns])
        for q in conv.questions:
            scores = bm.get_scores(tok(q.text))
            order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))[:10]
            score.add(q.category, [conv.turns[i].dia_id for i in order], q.evidence)
    return score.summary()


# ---- ingest and search ------------------------------------------------------------------------------------

@dataclass(slots=True)
class Ingested:
    scopes: dict[str, str]            # conversation id -> scope id
    dia_of: dict[str, str]            # artifact id -> dia_id
    turns_per_s: float
    held: set[tuple[str, str]] = field(default_factory=set)  # (conversation, dia_id) the threat scan quarantined


async def ingest(graph: Graph, convs: Sequence[eval_data.Conversation], embedder: Embedder | None,
                 tag: str, dated: bool = False) -> Ingested:
    scopes, dia_of, n, held = {}, {}, 0, set()
    t0 = time.perf_counter()
    rt = Runtime(graph, embedder=embedder)
    for conv in convs:
        scope = await create_scope(rt, namespace=f"eval-{tag}", cognitive_owner=ACTOR, name=conv.id, actor=ACTOR)
        scopes[conv.id] = str(scope["id"])
        for start in range(0, len(conv.turns), 1000):  # batch saves (MAX_BATCH 1000), turns in order
            turns = conv.turns[start:start + 1000]
            drafts = [draft_of(MemoryCreate(kind="episodic", tier="agent", content=t.text,  # type: ignore[arg-type]
                                            occurred_at=eval_data.session_time(t.date_time) if dated else None))
                      for t in turns]
            saved = await use.save(rt, scopes[conv.id], drafts, actor=ACTOR)
            for art, turn in zip(saved.items, turns, strict=True):
                dia_of[art.id] = turn.dia_id
                if art.status == "pending":  # quarantined: no search finds it until a reviewer approves it
                    held.add((conv.id, turn.dia_id))
            n += len(turns)
    return Ingested(scopes, dia_of, n / (time.perf_counter() - t0), held)


async def evaluate(graph: Graph, convs: Sequence[eval_data.Conversation], data: Ingested,
                   embedder: Embedder | None, cfg: Config) -> dict[str, Any]:
    rt = Runtime(graph, embedder=embedder, indexes=ScopeIndexes(analysis=cfg.analysis))
    score = Score()
    for conv in convs:
        scope_id = data.scopes[conv.id]
        # The first search of a scope loads its copy: not what a steady-state search costs.
        await use.search_ranked(rt, scope_id, [Family.memory], query="hello", limit=10, recall=False,
                                params=cfg.params)
        view = TimeView(now=eval_data.asked_at(conv)) if cfg.dated else CURRENT
        for q in conv.questions:
            t0 = time.perf_counter_ns()
            hits = await use.search_ranked(rt, scope_id, [Family.memory], query=q.text, limit=10, recall=False,
                                           params=cfg.params, view=view)
            score.latency_ns.append(time.perf_counter_ns() - t0)
            score.add(q.category, [data.dia_of.get(h.artifact["id"], "?") for h in hits], q.evidence)
    return score.summary()


async def chinese_check(graph: Graph, embedder: Embedder | None, cfgs: Sequence[Config]) -> dict[str, Any]:
    """recall@5 on tests/data/retrieval_set.json per configuration, Chinese and English queries apart."""
    rs = json.loads(RETRIEVAL_SET.read_text(encoding="utf-8"))
    rt = Runtime(graph, embedder=embedder)
    scope = await create_scope(rt, namespace="eval-zh", cognitive_owner=ACTOR,
                               name=f"set-{embedder.name if embedder else 'none'}", actor=ACTOR)
    drafts = [draft_of(MemoryCreate(kind="fact", tier="agent", content=d["text"]))  # type: ignore[arg-type]
              for d in rs["docs"]]
    saved = (await use.save(rt, scope["id"], drafts, actor=ACTOR)).items
    doc_of = {a.id: d["id"] for a, d in zip(saved, rs["docs"], strict=True)}
    out: dict[str, Any] = {}
    for cfg in cfgs:
        searching = Runtime(graph, embedder=embedder if cfg.embedder else None,
                            indexes=ScopeIndexes(analysis=cfg.analysis))
        per: dict[str, list[float]] = defaultdict(list)
        for q in rs["queries"]:
            hits = await use.search_ranked(searching, scope["id"], [Family.memory], query=q["text"], limit=5,
                                           recall=False, params=cfg.params)
            found = {doc_of[h.artifact["id"]] for h in hits}
            per[q["lang"]].append(len(found & set(q["relevant"])) / len(q["relevant"]))
        out[cfg.name] = {lang: sum(v) / len(v) for lang, v in per.items()}
    return out


NOISE_CHUNK = 5_000
RAW_CREATE = "UNWIND $rows AS r CREATE (a:Artifact:Memory) SET a = r"  # the raw baselines' write (bench/)


async def add_noise(graph: Graph, n: int) -> float:
    """Another tenant: n short mixed English/Chinese memories (bench.common.TextGen), written in raw UNWIND
    batches with exactly the properties the service's save stores (bench.common.raw_props): the full-text index
    and the store hold them as if saved; the save path's own cost is `make bench`'s business, not this one's."""
    gen = TextGen(seed=7)
    scope = await create_scope(Runtime(graph), namespace="noise-tenant", cognitive_owner="other", name="big",
                               actor=ACTOR)
    t0 = time.perf_counter()
    for start in range(0, n, NOISE_CHUNK):
        rows = [raw_props(MemoryCreate(kind="episodic", tier="agent", content=gen.sentence()),  # type: ignore[arg-type]
                          str(scope["id"])) for _ in range(min(NOISE_CHUNK, n - start))]
        await graph.driver.execute_query(RAW_CREATE, rows=rows, database_=graph.database)
        if (start + len(rows)) % 20_000 == 0:
            say(f"noise tenant: {start + len(rows):,}/{n:,}")
    return n / (time.perf_counter() - t0)


# ---- the run ------------------------------------------------------------------------------------------

async def run(cfg_neo4j: Neo4jConfig, args: argparse.Namespace) -> dict[str, Any]:
    convs = eval_data.load()
    if args.quick:
        convs = convs[:2]
    default = os.environ.get("COGNITION_EMBEDDER_DEFAULT_FOR_EVAL") or ranking_default_embedder()
    all_cfgs = configs(default)
    chosen = [all_cfgs[n] for n in args.configs.split(";")] if args.configs else list(all_cfgs.values())
    graph = Graph.connect(cfg_neo4j)
    report: dict[str, Any] = {"data": str(eval_data.data_path()), "conversations": len(convs),
                              "questions": sum(len(c.questions) for c in convs), "turns":
                              sum(len(c.turns) for c in convs), "configs": {}, "noisy": {}, "ingest": {}}
    try:
        await apply_schema(graph)
        report["bm25 baseline (rank_bm25)"] = bm25_baseline(convs)
        embedders: dict[str | None, Embedder | None] = {None: None}
        for key in sorted({c.embedder for c in chosen if c.embedder}):
            embedders[key] = CachedEmbedder(make_embedder(key))  # type: ignore[arg-type]
        ingested: dict[tuple[str | None, bool], Ingested] = {}
        for key, emb in embedders.items():
            for dated in sorted({c.dated for c in chosen if c.embedder == key}):
                label = (key or "none") + ("-dated" if dated else "")
                say(f"ingesting {report['turns']} turns with embedder {key or 'none'}{', dated' if dated else ''}")
                ingested[(key, dated)] = await ingest(graph, convs, emb, label, dated)
                report["ingest"][label] = round(ingested[(key, dated)].turns_per_s, 1)
                report.setdefault("held", held_report(convs, ingested[(key, dated)].held))
            if isinstance(emb, CachedEmbedder):
                emb.save()
        for c in chosen:
            say(f"searching: {c.name}")
            report["configs"][c.name] = await evaluate(graph, convs, ingested[(c.embedder, c.dated)],
                                                       embedders[c.embedder], c)
        report["chinese"] = {}
        for key, emb in embedders.items():
            report["chinese"].update(await chinese_check(graph, emb, [c for c in chosen if c.embedder == key]))
        if args.noise:
            say(f"adding {args.noise} memories of another tenant")
            report["noise"] = {"memories": args.noise, "rows_per_s": round(await add_noise(graph, args.noise), 1)}
            for c in chosen:
                if c.noisy:
                    say(f"searching in the noisy store: {c.name}")
                    report["noisy"][c.name] = await evaluate(graph, convs, ingested[(c.embedder, c.dated)],
                                                             embedders[c.embedder], c)
        for emb in embedders.values():
            if isinstance(emb, CachedEmbedder):
                emb.save()
    finally:
        await graph.close()
    return report


def ranking_default_embedder() -> str | None:
    from service.search.embedding import DEFAULT_EMBEDDER
    return DEFAULT_EMBEDDER


def held_report(convs: Sequence[eval_data.Conversation], held: set[tuple[str, str]]) -> dict[str, int]:
    """The turns the threat scan quarantined (pending: invisible to search), and the questions they take away: every
    evidence turn held, so no configuration can find one (the same turns are held in every ingest)."""
    lost = sum(1 for c in convs for q in c.questions if q.evidence and all((c.id, e) in held for e in q.evidence))
    return {"turns held": len(held), "questions with every evidence turn held": lost}


def print_report(rep: dict[str, Any]) -> None:
    cats = list(eval_data.CATEGORIES.values())
    head = ["configuration", "hit@10", "hit@5", *[f"{c} @10" for c in cats], "p50 ms", "p95 ms"]
    lines = [head]

    def row(name: str, s: dict[str, Any]) -> list[str]:
        lat = [f"{s['p50 ms']:.1f}", f"{s['p95 ms']:.1f}"] if "p50 ms" in s else ["-", "-"]
        return [name, f"{s['hit@10']:.3f}", f"{s['hit@5']:.3f}", *[f"{s[f'{c} hit@10']:.3f}" for c in cats], *lat]

    lines.append(row("plain BM25 (rank_bm25, same turns)", rep["bm25 baseline (rank_bm25)"]))
    for name, s in rep["configs"].items():
        lines.append(row(name, s))
    for name, s in rep.get("noisy", {}).items():
        lines.append(row(f"NOISY {rep['noise']['memories']:,}: {name}", s))
    widths = [max(len(r[i]) for r in lines) for i in range(len(head))]
    print(f"\nLoCoMo dev split ({rep['data']}): {rep['conversations']} conversations, {rep['turns']} turns, "
          f"{rep['questions']} questions (LoCoMo: Maharana et al., ACL 2024, CC BY-NC 4.0)")
    for i, r in enumerate(lines):
        print("  ".join(c.ljust(w) if j == 0 else c.rjust(w) for j, (c, w) in enumerate(zip(r, widths, strict=True))))
        if i == 0:
            print("  ".join("-" * w for w in widths))
    print("\ningest (turns/s, batch saves of <= 1000 turns, vectors memoised after the first run):",
          ", ".join(f"{k} {v:,.0f}" for k, v in rep["ingest"].items()))
    if "held" in rep:
        h = rep["held"]
        print(f"turns quarantined by the threat scan (pending until a reviewer approves them): {h['turns held']} of "
              f"{rep['turns']}; questions whose every evidence turn is held: "
              f"{h['questions with every evidence turn held']}")
    if "noise" in rep:
        print(f"noise tenant: {rep['noise']['memories']:,} memories at {rep['noise']['rows_per_s']:,.0f} rows/s")
    print("\nChinese check, recall@5 on tests/data/retrieval_set.json (self-written; zh / en queries):")
    for name, s in rep.get("chinese", {}).items():
        print(f"  {name:58s} zh {s.get('zh', 0):.3f}   en {s.get('en', 0):.3f}")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.eval_recall", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="the first two conversations only")
    ap.add_argument("--configs", help="configuration names separated by ; (default: all)")
    ap.add_argument("--noise", type=int, default=100_000, help="memories of the other tenant (0 = skip)")
    args = ap.parse_args(argv)
    logging.getLogger("neo4j.notifications").setLevel(logging.ERROR)
    uri = os.environ.get("COGNITION_EVAL_NEO4J_URI")
    inst = EVAL_INSTANCE
    started = time.perf_counter()
    try:
        if uri:
            cfg = Neo4jConfig(uri, os.environ.get("COGNITION_EVAL_NEO4J_USER", "neo4j"),
                              os.environ["COGNITION_EVAL_NEO4J_PASSWORD"])
        else:
            say(f"starting the eval Neo4j fresh ({inst.uri}, heap {inst.heap})")
            cfg = Neo4jConfig(inst.uri, "neo4j", neo4j_local.start(inst, fresh=True))
        rep = asyncio.run(run(cfg, args))
    finally:
        if not uri:
            neo4j_local.stop(inst)
    rep["wall s"] = round(time.perf_counter() - started, 1)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(rep, indent=2, default=str))
    print_report(rep)
    print(f"\nwall time {rep['wall s'] / 60:.1f} min (JSON: {RESULTS}; load average {os.getloadavg()[0]:.1f}: "
          "timings are noisy on a shared machine)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
