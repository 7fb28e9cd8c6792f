"""The fast context query (cypher/context/assemble.cypher) against its oracle — the query it replaced, kept as
cypher/context/assemble_reference.cypher — on random scopes: every arm, the same rows in the same order.

Scopes are written raw with the properties the service stores (trust, recall_count and the three datetimes are
always there), drawn from small sets so that ties are common: equal trust, equal whole seconds with different
sub-second updates, equal recall counts. Flags (missing / false / true), pending, archived and removed rows,
working state, knowledge pages, skills and kernels with and without content are mixed in. The retention arms'
list lengths `$cand_first` and `$cand` are drawn small, so all of their paths run: the proof that the short
lists' union holds the top n, the same proof over the longer lists, and the fallback that scores every row.
Each scope also takes one of SHAPES: the mix, or bent into a bulk import (ties on every sort key), one kind only,
no role tier, one kind dominating (the shapes whose cost test_context_cost.py checks), role-tier preferences or the
eager kinds with one trust and one timestamp, thirty tags a row, long texts, or Chinese texts asked in Chinese (the
shapes bench/shapes.py times).
Both queries run in a transaction that is rolled back, with the same parameters (the same `$now`), so neither
sees the other's recall writes."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from neo4j import Driver

import cypher
from service.usecases import context as ctx_use
from service.usecases.runtime import Runtime, utcnow
from tests.conftest import unique

KINDS = ("episodic", "semantic", "observational", "preference", "fact", "constraint", "instruction", "environment")
LABELS = {"memory": "Memory", "knowledge": "Knowledge", "skill": "Skill", "working_state": "WorkingState"}
WORDS = ("walrus", "tea", "deploy", "rule")
ZH = {"walrus": "海象", "tea": "喝茶", "deploy": "部署", "rule": "规则"}  # the chinese shape's words

row_st = st.fixed_dictionaries({
    "family": st.sampled_from(["memory"] * 6 + ["knowledge", "skill", "working_state"]),
    "kind": st.sampled_from(KINDS),
    "tier": st.sampled_from(["session", "working", "agent", "role", "role"]),
    "status": st.sampled_from(["active"] * 5 + ["pending", "archived", "removed"]),
    "stale": st.sampled_from([None, False, False, True]),
    "conflicted": st.sampled_from([None, False, False, True]),
    "trust": st.one_of(st.sampled_from([0.0, 0.5, 0.5, 0.9, 1.0]), st.floats(0.0, 1.0)),
    "recall_count": st.sampled_from([0, 0, 0, 1, 2, 7, 30]),
    # whole-second offsets from a few values (ties), plus a sub-second part that only sometimes differs
    "created_s": st.sampled_from([0, 5, 3600, 86400 * 3, 86400 * 40, 86400 * 400]),
    "accessed_s": st.sampled_from([None, 0, 1, 86400, 86400 * 10]),  # None: never accessed since created
    "updated_s": st.sampled_from([None, 0, 2, 86400 * 2]),  # None: never updated
    "micro": st.sampled_from([0, 0, 1000, 250_000]),
    "word": st.sampled_from(WORDS),
})


def _props(i: int, r: dict[str, Any], scope_id: str, now: Any) -> dict[str, Any]:
    created = now - timedelta(seconds=r["created_s"], microseconds=r["micro"])
    accessed = created if r["accessed_s"] is None else now - timedelta(seconds=r["accessed_s"])
    updated = created if r["updated_s"] is None else now - timedelta(seconds=r["updated_s"],
                                                                     microseconds=r["micro"] // 2)
    p: dict[str, Any] = {
        "id": f"{scope_id}-{i:03d}", "scope_id": scope_id, "family": r["family"], "status": r["status"],
        "content": _content(i, r), "trust": r["trust"], "recall_count": r["recall_count"],
        "created_at": created, "accessed_at": accessed, "updated_at": updated, "revision": 1,
    }
    if r["family"] == "memory":
        p.update(kind=r["kind"], tier=r["tier"])
    if r["family"] == "knowledge":
        p["title"] = f"page {i}"
    if "tags" in r:
        p["tags"] = r["tags"]
    for flag in ("stale", "conflicted"):
        if r[flag] is not None:
            p[flag] = r[flag]
    return p


def _arms(raw: Driver, name: str, params: dict[str, Any]) -> dict[str, list[str]]:
    with raw.session() as s:
        tx = s.begin_transaction()
        try:
            rec = tx.run(cypher.compose(name), params).single()
        finally:
            tx.rollback()
    assert rec is not None and rec["found"]
    # the live query names each arm's rows by id (its rows projected once); the reference returns them whole
    return {x["arm"]: list(x["ids"]) if "ids" in x else [a["id"] for a in x["items"]] for x in rec["arms"]}


# Shapes a scope may have besides the mix (docs/context-and-ranking.md): a bulk import (one kind, agent tier, one
# trust, one timestamp, no recalls: ties everywhere), one kind only, no role-tier memories, one kind dominating,
# tied role preferences, tied eager kinds, thirty tags a row, long texts, Chinese texts.
SHAPES = ("mixed", "imported", "one_kind", "no_role", "dominant", "preferences_tied", "eager_tied", "many_tags",
          "long_texts", "chinese")
EAGER = ("constraint", "instruction", "environment", "episodic")


def _shaped(shape: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = [dict(r) for r in rows]
    for i, r in enumerate(out):
        if shape == "imported":
            r.update(family="memory", kind="fact", tier="agent", trust=0.5, recall_count=0, created_s=0,
                     accessed_s=None, updated_s=None, micro=0)
        elif shape == "one_kind":
            r.update(family="memory", kind=rows[0]["kind"], trust=0.5, created_s=0, updated_s=None, micro=0)
        elif shape == "no_role" and r["tier"] == "role":
            r["tier"] = "agent"
        elif shape == "dominant" and i % 10:
            r.update(family="memory", kind="preference", tier="role")
        elif shape == "preferences_tied":
            r.update(family="memory", kind="preference", tier="role", trust=0.5, created_s=0, updated_s=None,
                     micro=0)
        elif shape == "eager_tied":
            r.update(family="memory", kind=EAGER[i % 4], trust=0.9, created_s=0, updated_s=None, micro=0)
        elif shape == "many_tags":
            r["tags"] = [f"tag{(i + j) % 40}" for j in range(30)]
        elif shape == "long_texts":
            r["filler"] = " ".join(f"{WORDS[(i + j) % 4]}s filler{j}" for j in range(120))[:1_500]
        elif shape == "chinese":
            r["zh"] = True
    return out


def _content(i: int, r: dict[str, Any]) -> str:
    if r.get("zh"):
        return f"{ZH[r['word']]}的第{i}条记录。"
    return f"{r['word']} row {i} {r.get('filler', '')}".rstrip()


kernel_st = st.tuples(st.sampled_from(["", "  ", "I am the release agent."]), st.sampled_from([None, True]))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(rows=st.lists(row_st, max_size=45),
       limits=st.fixed_dictionaries({arm: st.integers(0, 6) for arm in ctx_use.ARMS}),
       first_extra=st.integers(0, 3), cand_extra=st.integers(0, 6), kernels=st.tuples(kernel_st, kernel_st),
       query=st.sampled_from([None, "walrus", "tea rule"]), shape=st.sampled_from(SHAPES))
def test_fast_context_answers_exactly_what_the_reference_query_answers(
        client: TestClient, raw: Driver, rows: list[dict[str, Any]], limits: dict[str, int], first_extra: int,
        cand_extra: int,
        kernels: tuple[tuple[str, bool | None], tuple[str, bool | None]], query: str | None, shape: str) -> None:
    rows = _shaped(shape, rows)
    if shape == "chinese" and query is not None:
        query = "".join(ZH[w] for w in query.split())
    r = client.post("/v1/scopes", json={"namespace": unique("ns"), "cognitive_owner": "oracle", "name": "s"})
    assert r.status_code == 201, r.text
    scope_id = r.json()["id"]
    now = utcnow()
    props = [_props(i, row, scope_id, now) for i, row in enumerate(rows)]
    # the marker the save derives (fragments/ranked.cypher): the reference ranks by family, kind and tier alone, so
    # a marker that left out a row some arm reads makes the live answer differ from it
    raw.execute_query(cypher.compose_text("UNWIND $rows AS r CREATE (a:Artifact:$(r.label)) SET a = r.props "
                                          "SET a.ranked = {{RANKED}}"),
                      rows=[{"label": LABELS[p["family"]], "props": p} for p in props])
    for family, (content, stale) in zip(("agent_kernel", "world_kernel"), kernels, strict=True):
        raw.execute_query("MATCH (k:Artifact {scope_id: $sid, family: $family}) SET k.content = $content, "
                          "k.stale = $stale", sid=scope_id, family=family, content=content, stale=stale)
    params = asyncio.run(ctx_use.query_params(Runtime(None), scope_id, surface="all", query=query,  # type: ignore[arg-type]
                                              limits=limits))
    # short lists (>= every limit, as the service guarantees) make every path run: the proof at the first depth,
    # at the second, and the fallback that scores every row
    params["cand_first"] = max(limits.values()) + first_extra
    params["cand"] = params["cand_first"] + cand_extra
    params["now"] = now + timedelta(seconds=1)
    want = _arms(raw, "context/assemble_reference", params)
    got = _arms(raw, "context/assemble", params)
    for arm in ctx_use.ARMS:
        assert got.get(arm, []) == want.get(arm, []), (arm, got.get(arm), want.get(arm))

