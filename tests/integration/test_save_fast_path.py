"""A save at the speed of a commit (issue 18) keeps what a save promised: the full-text index is eventually
consistent now (schema 0015), yet a search — through the scope index (default) or through Lucene — finds a
memory saved a moment before it; and the save is still one transaction with its revision and its audit event."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from neo4j import Driver

from cognition.schemas.records import MemoryCreate
from graph.model import Family
from service.search import ranking
from service.usecases import artifacts as use
from service.usecases.drafts import draft_of
from service.usecases.runtime import Runtime
from tests.conftest import OnRuntime

ROUNDS = 15


def test_the_full_text_index_is_eventually_consistent(raw: Driver, client: TestClient) -> None:
    # `client`: the app's start-up applies the schema.
    rows = {r["name"]: r for r in raw.execute_query("SHOW INDEXES YIELD name, options").records}
    assert rows["artifact_text"]["options"]["indexConfig"]["fulltext.eventually_consistent"] is True


def test_a_search_finds_a_memory_saved_a_moment_before_on_both_ranking_paths(scope: dict[str, Any],
                                                                            client: TestClient,
                                                                            on_runtime: OnRuntime) -> None:
    sid = scope["id"]
    lucene = replace(ranking.DEFAULT, scope_index=False)

    async def go(rt: Runtime) -> list[tuple[bool, bool]]:
        out = []
        for _ in range(ROUNDS):
            word = "qz" + uuid.uuid4().hex[:12]  # a word no other row holds
            body = MemoryCreate(kind="fact", tier="agent", content=f"the parking spot is {word} today")  # type: ignore[arg-type]
            [saved] = (await use.save(rt, sid, [draft_of(body)], actor="test")).items
            found = []
            for params in (ranking.DEFAULT, lucene):
                hits = await use.search_ranked(rt, sid, [Family.memory], query=word, limit=5, recall=False,
                                               params=params)
                found.append([h.artifact["id"] for h in hits] == [saved.id])
            out.append((found[0], found[1]))
        return out

    results = on_runtime(go)
    assert all(scope_index_found for scope_index_found, _ in results)
    assert all(lucene_found for _, lucene_found in results)  # the Lucene branch waited for the refresh


def test_a_saved_memory_has_its_revision_and_event_from_the_same_commit(scope: dict[str, Any], client: TestClient,
                                                                        raw: Driver) -> None:
    sid = scope["id"]
    r = client.post(f"/v1/scopes/{sid}/memories", json={"kind": "fact", "tier": "agent", "content": "a fact"})
    assert r.status_code == 201, r.text
    aid = r.json()["id"]
    rec = raw.execute_query(
        "MATCH (a:Artifact {id: $id})-[:HAS_REVISION]->(v:Revision) "
        "MATCH (e:Event {artifact_id: $id, op: 'save'}) "
        "RETURN v.revision AS rev, v.at = a.created_at AS same_time, e.at = a.created_at AS event_time", id=aid
    ).records
    assert [(x["rev"], x["same_time"], x["event_time"]) for x in rec] == [(1, True, True)]


def test_a_saved_memory_stores_its_times_as_datetimes_equal_to_the_answer(scope: dict[str, Any], client: TestClient,
                                                                          raw: Driver) -> None:
    """The save sends its times as ISO-8601 text (graph/artifacts.py `wire_row`); the graph must hold DateTimes,
    the very instants the API answered, on the artifact, its revision and its event."""
    sid = scope["id"]
    r = client.post(f"/v1/scopes/{sid}/memories", json={"kind": "fact", "tier": "agent", "content": "a timed fact"})
    assert r.status_code == 201, r.text
    body = r.json()
    [rec] = raw.execute_query(
        "MATCH (a:Artifact {id: $id})-[:HAS_REVISION]->(v:Revision) MATCH (e:Event {artifact_id: $id, op: 'save'}) "
        "RETURN a.created_at AS c, a.updated_at AS u, a.accessed_at AS x, v.at AS v, e.at AS e, "
        "[t IN [a.created_at, a.updated_at, a.accessed_at, v.at, e.at] | valueType(t)] AS types", id=body["id"]).records
    assert set(rec["types"]) == {"ZONED DATETIME NOT NULL"}
    answered = datetime.fromisoformat(body["created_at"].replace("Z", "+00:00"))
    assert rec["c"].to_native() == rec["u"].to_native() == rec["x"].to_native() == answered
    assert rec["c"].utcoffset() == timedelta(0)
    assert rec["v"].to_native() == rec["e"].to_native() == answered  # a single save: its row's time is the save's


def test_a_batch_keeps_its_rows_one_microsecond_apart(scope: dict[str, Any], client: TestClient, raw: Driver) -> None:
    sid = scope["id"]
    r = client.post(f"/v1/scopes/{sid}/memories/batch",
                    json={"items": [{"kind": "fact", "tier": "agent", "content": f"batch fact {i}"} for i in range(3)]})
    assert r.status_code == 201, r.text
    ids = [x["id"] for x in r.json()["items"]]
    got = raw.execute_query("UNWIND $ids AS id MATCH (a:Artifact {id: id}) RETURN a.created_at AS c", ids=ids).records
    times = [x["c"].to_native() for x in got]
    assert [b - a for a, b in zip(times, times[1:], strict=False)] == [timedelta(microseconds=1)] * 2
