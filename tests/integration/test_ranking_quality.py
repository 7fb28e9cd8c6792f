"""Retrieval quality on a small labelled set (tests/data/retrieval_set.json: 40 memories, 22 queries, English
and Chinese, mostly paraphrases, some across languages): recall@5 of explicit search with and without vectors.
Run with `-s` to see the table; the README quotes the numbers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cognition.schemas.records import MemoryCreate
from graph.model import Family
from service.usecases import artifacts as use
from service.usecases.drafts import draft_of
from service.usecases.runtime import Runtime
from tests.conftest import OnRuntime
from tests.integration.test_ranking import EMBEDDER

SET = json.loads((Path(__file__).parent.parent / "data" / "retrieval_set.json").read_text(encoding="utf-8"))
K = 5


def recall_at_k(found: list[str], relevant: list[str], k: int = K) -> float:
    return len(set(found[:k]) & set(relevant)) / len(relevant)


def test_recall_at_5_with_and_without_vectors(scope: dict[str, Any], on_runtime: OnRuntime) -> None:
    docs = SET["docs"]
    drafts = [draft_of(MemoryCreate(kind="fact", tier="agent", content=d["text"], subject=d["id"]))  # type: ignore[arg-type]
              for d in docs]

    async def run(rt: Runtime) -> dict[str, dict[str, list[str]]]:
        saved = (await use.save(rt, scope["id"], drafts, actor="test")).items
        doc_of = {a.id: d["id"] for a, d in zip(saved, docs, strict=True)}
        out: dict[str, dict[str, list[str]]] = {"full-text": {}, "hybrid": {}}
        for q in SET["queries"]:
            for mode, embedder in (("full-text", None), ("hybrid", EMBEDDER)):
                hits = await use.search(rt.using(embedder=embedder), scope["id"], [Family.memory], query=q["text"],
                                        limit=K, recall=False)
                out[mode][q["id"]] = [doc_of[a.id] for a, _ in hits]
        return out

    results = on_runtime(run, embedder=EMBEDDER)
    table = {}
    for mode, found in results.items():
        per = {q["id"]: recall_at_k(found[q["id"]], q["relevant"]) for q in SET["queries"]}
        by_lang = {lang: [per[q["id"]] for q in SET["queries"] if q["lang"] == lang] for lang in ("en", "zh")}
        table[mode] = (sum(per.values()) / len(per), {k: sum(v) / len(v) for k, v in by_lang.items()}, per)
    print(f"\nrecall@{K} over {len(SET['queries'])} queries, {len(docs)} docs (embedder {EMBEDDER.name})")
    for mode, (overall, by_lang, per) in table.items():
        misses = [q for q, r in per.items() if r < 1.0]
        langs = f"en {by_lang['en']:.3f}, zh {by_lang['zh']:.3f}"
        print(f"  {mode:9s} {overall:.3f}  ({langs})  incomplete: {misses}")
    ft, hybrid = table["full-text"][0], table["hybrid"][0]
    assert hybrid >= ft + 0.2, (ft, hybrid)
    assert hybrid >= 0.8, hybrid
