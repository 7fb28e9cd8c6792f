"""The `ranked` marker (cypher/fragments/ranked.cypher) against the real Neo4j: the indexes on the read statistics
(recall_count, accessed_at) hold only the rows a retention-ranked context arm reads (preferences, knowledge,
skills, profile), so the marker must be on exactly those rows, however a row was made (a save, an import, a
keyed put that moves it between tiers, the migration marking a store written before it), or an arm silently
misses rows. Each test tries to leave a row marked wrongly and checks the arms still answer it."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from neo4j import Driver

import cypher
from graph import schema
from tests.conftest import unique
from tests.integration.test_context import base, context, ids, knowledge, mem, skill
from tests.integration.test_keyed import path as keyed_path
from tests.integration.test_portability import _rebuild, do_import, export, lines

# (kind, tier) of a memory -> whether a ranked arm reads it: preferences (any tier), the profile (role tier, not
# episodes); nothing else
MEMORIES = {("preference", "agent"): True, ("preference", "role"): True, ("fact", "role"): True,
            ("semantic", "role"): True, ("episodic", "role"): False, ("fact", "agent"): False,
            ("constraint", "agent"): False, ("instruction", "session"): False, ("episodic", "agent"): False,
            ("environment", "working"): False, ("constraint", "role"): True}
# Every index on a read statistic, and the arm's filter it serves (its equality prefix).
RECALL_INDEXES = ("artifact_ctx_kind_recalls_ranked", "artifact_ctx_kind_accessed_ranked",
                  "artifact_ctx_family_recalls_ranked", "artifact_ctx_family_accessed_ranked",
                  "artifact_ctx_tier_recalls_ranked", "artifact_ctx_tier_accessed_ranked")


def marks(raw: Driver, scope_id: str) -> dict[str, bool]:
    rows = raw.execute_query("MATCH (a:Artifact {scope_id: $s}) RETURN a.id AS id, a.ranked AS ranked", s=scope_id)
    return {r["id"]: r["ranked"] is True for r in rows.records}


def test_a_save_marks_exactly_the_rows_ranked_arms_read(client: TestClient, scope: dict[str, Any],
                                                       raw: Driver) -> None:
    want = {mem(client, scope, kind, f"{kind} at {tier}", tier=tier)["id"]: ranked
            for (kind, tier), ranked in MEMORIES.items()}
    want[knowledge(client, scope, "Cypher", "a query language")["id"]] = True
    want[skill(client, scope, "deploy", "when shipping")["id"]] = True
    got = marks(raw, scope["id"])
    assert {i: got[i] for i in want} == want
    # the kernels are read through their own lists, never ranked by recall
    kernels = raw.execute_query("MATCH (k:Artifact {scope_id: $s}) WHERE k.family ENDS WITH '_kernel' "
                                "RETURN k.ranked AS r", s=scope["id"]).records
    assert len(kernels) == 2 and all(k["r"] is None for k in kernels)
    # a marker is not part of the record
    one = next(iter(want))
    r = client.get(f"{base(scope)}/memories/{one}")
    assert r.status_code == 200 and "ranked" not in r.json()


def test_recall_indexes_hold_only_ranked_rows_and_every_one_of_them(client: TestClient, scope: dict[str, Any],
                                                                    raw: Driver) -> None:
    for (kind, tier) in MEMORIES:
        mem(client, scope, kind, f"{kind} at {tier}", tier=tier)
    context(client, scope, "all")  # a recall of every arm's rows: their statistics written, indexed or not
    listed = raw.execute_query("SHOW INDEXES YIELD name, properties, state WHERE name IN $names "
                               "RETURN name, properties, state", names=list(RECALL_INDEXES)).records
    assert sorted(r["name"] for r in listed) == sorted(RECALL_INDEXES)
    assert all(r["properties"][-1] == "ranked" and r["state"] == "ONLINE" for r in listed)
    # the indexes these replaced are gone (they held every artifact)
    old = raw.execute_query("SHOW INDEXES YIELD name, properties WHERE name STARTS WITH 'artifact_ctx_' "
                            "AND any(p IN properties WHERE p IN ['recall_count', 'accessed_at']) "
                            "AND NOT 'ranked' IN properties RETURN name").records
    assert old == []
    ranked = {i for i, r in marks(raw, scope["id"]).items() if r}
    # what the tier index holds for this scope's memories, read through it (the hint fails if it cannot be used)
    through = raw.execute_query(
        "MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, tier, status, recall_count, ranked) "
        "WHERE a.scope_id = $s AND a.family = 'memory' AND a.tier IN ['agent', 'role', 'session', 'working'] "
        "AND a.status = 'active' AND a.recall_count >= 0 AND a.ranked = true RETURN collect(a.id) AS ids",
        s=scope["id"]).records[0]["ids"]
    assert set(through) == ranked and len(through) == sum(MEMORIES.values())


def test_a_keyed_put_that_moves_the_tier_moves_the_row_in_and_out_of_the_profile(
        client: TestClient, scope: dict[str, Any], raw: Driver) -> None:
    body = {"kind": "semantic", "tier": "agent", "content": "prefers short answers", "subject": unique("s")}
    first = client.put(keyed_path(scope), params={"key": "style"}, json=body)
    assert first.status_code == 201, first.text
    rid = first.json()["id"]
    assert marks(raw, scope["id"])[rid] is False
    assert rid not in ids(context(client, scope, "cold_start")["profile"])
    r = client.put(keyed_path(scope), params={"key": "style"}, json={**body, "tier": "role"})
    assert r.status_code == 200, r.text
    assert marks(raw, scope["id"])[rid] is True
    assert rid in ids(context(client, scope, "cold_start")["profile"])
    r = client.put(keyed_path(scope), params={"key": "style"}, json={**body, "tier": "session"})
    assert r.status_code == 200, r.text
    assert marks(raw, scope["id"])[rid] is False
    assert rid not in ids(context(client, scope, "cold_start")["profile"])


def test_an_import_marks_the_rows_whatever_the_file_says(client: TestClient, scope: dict[str, Any],
                                                        raw: Driver) -> None:
    pref = mem(client, scope, "preference", "likes tea")["id"]
    fact = mem(client, scope, "fact", "the sky is blue")["id"]
    objs = lines(export(client, scope["id"]))
    arts = {o["id"]: o for o in objs if o["type"] == "artifact"}
    assert arts[pref].get("ranked") is True and "ranked" not in arts[fact]
    # a file that lies: the preference claims not to be ranked, the fact claims to be
    arts[pref]["ranked"], arts[fact]["ranked"] = False, True
    lied = _rebuild([o for o in objs if o["type"] != "manifest"])
    new = do_import(client, lied, namespace=scope["namespace"], cognitive_owner="o", name="lied")
    got = raw.execute_query("MATCH (a:Artifact {scope_id: $s}) WHERE a.family = 'memory' "
                            "RETURN a.content AS c, a.ranked AS r", s=new["scope"]["id"]).records
    assert {g["c"]: g["r"] for g in got} == {"likes tea": True, "the sky is blue": None}
    prefs = context(client, {"id": new["scope"]["id"]}, "eager")["preferences"]
    assert [x["content"] for x in prefs] == ["likes tea"]


def test_the_migration_marks_a_store_written_before_the_marker(client: TestClient, scope: dict[str, Any],
                                                              raw: Driver) -> None:
    made = {mem(client, scope, kind, f"{kind} at {tier}", tier=tier)["id"]: (kind, tier) for kind, tier in MEMORIES}
    page = knowledge(client, scope, "APOC", "procedures")["id"]
    # as a store from before the marker left them (none), and one raw writer's mistake (a fact marked)
    raw.execute_query("MATCH (a:Artifact {scope_id: $s}) REMOVE a.ranked", s=scope["id"])
    wrong = next(i for i, kt in made.items() if not MEMORIES[kt])
    raw.execute_query("MATCH (a:Artifact {id: $id}) SET a.ranked = true", id=wrong)
    # unmarked rows are out of the recall indexes: their lists miss them (what the migration repairs)
    listed = raw.execute_query(
        "MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, status, recall_count, ranked) "
        "WHERE a.scope_id = $s AND a.family = 'knowledge' AND a.status = 'active' "
        "AND a.recall_count >= 0 AND a.ranked = true RETURN count(a) AS n", s=scope["id"])
    assert listed.records[0]["n"] == 0
    migration = next(m for m in schema.migrations() if m.name == "0024_ranked_recall_indexes")
    marking = [s for s in migration.statements if s.startswith("MATCH")]
    assert len(marking) == 1 and "{{" not in marking[0]
    with raw.session() as session:
        session.run(marking[0]).consume()  # CALL … IN TRANSACTIONS: an implicit transaction
    got = marks(raw, scope["id"])
    assert {i: got[i] for i in made} == {i: MEMORIES[kt] for i, kt in made.items()} and got[page] is True
    prefs = {i for i, (kind, _) in made.items() if kind == "preference"}
    assert set(ids(context(client, scope, "eager")["preferences"])) == prefs
    assert ids(context(client, scope, "lazy")["knowledge"]) == [page]


def test_the_fragment_and_the_arms_agree_on_every_combination(raw: Driver) -> None:
    # the marker's rule, asked of maps, against the arms' own filters (context/assemble_reference.cypher)
    rows = [{"family": f, "kind": k, "tier": t}
            for f in ("memory", "knowledge", "skill", "agent_kernel", "working_state")
            for k in (None, "preference", "episodic", "fact", "constraint")
            for t in (None, "role", "agent", "session")]
    got = raw.execute_query(cypher.compose_text("UNWIND $rows AS a RETURN a, {{RANKED}} AS r"), rows=rows).records
    for rec in got:
        a = rec["a"]
        read = (a["family"] in ("knowledge", "skill")
                or (a["family"] == "memory" and a["kind"] == "preference")
                or (a["family"] == "memory" and a["tier"] == "role" and a["kind"] not in (None, "episodic")))
        assert (rec["r"] is True) == read and rec["r"] in (True, None), a
