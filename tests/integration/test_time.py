"""Time as a dimension, over HTTP against the real Neo4j (docs/time.md): occurred_at, valid time, supersession that
closes validity, current truth by default, `as_of` (valid time) and `known_at` (record time) on load, list, search,
history and the context call, and each answer's view."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from neo4j import Driver

DAY = timedelta(days=1)


def base(scope: dict[str, Any]) -> str:
    return f"/v1/scopes/{scope['id']}"


def iso(t: datetime) -> str:
    return t.isoformat()


def at(text: str) -> datetime:
    return datetime.fromisoformat(text)


def save(client: TestClient, scope: dict[str, Any], content: str, *, status: int = 201, **extra: Any) -> Any:
    body = {"kind": "fact", "tier": "agent", "content": content, **extra}
    r = client.post(f"{base(scope)}/memories", json=body)
    assert r.status_code == status, r.text
    return r.json()


def search(client: TestClient, scope: dict[str, Any], query: str, **extra: Any) -> dict[str, Any]:
    r = client.post(f"{base(scope)}/memories/search", json={"query": query, **extra})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def ids(items: list[dict[str, Any]]) -> list[str]:
    return [i["id"] for i in items]


# ---- occurred_at -----------------------------------------------------------------------------------------------

def test_occurred_at_defaults_to_the_save_and_is_kept_as_given(client: TestClient, scope: dict[str, Any]) -> None:
    plain = save(client, scope, "saved today")
    assert plain["occurred_at"] == plain["created_at"]
    assert plain["valid_from"] == plain["occurred_at"] and plain["valid_until"] is None
    when = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    old = save(client, scope, "a talk from last year", occurred_at=iso(when))
    assert at(old["occurred_at"]) == when and at(old["valid_from"]) == when
    assert at(old["created_at"]) > when
    loaded = client.get(f"{base(scope)}/memories/{old['id']}").json()
    assert at(loaded["occurred_at"]) == when
    # every family takes it; only memories and knowledge pages have valid time
    page = client.post(f"{base(scope)}/knowledge", json={"title": "t", "body": "b", "occurred_at": iso(when)}).json()
    assert at(page["occurred_at"]) == when and at(page["valid_from"]) == when
    skill = client.post(f"{base(scope)}/skills", json={"name": "n", "when_to_use": "w", "steps": ["s"],
                                                      "occurred_at": iso(when)}).json()
    assert at(skill["occurred_at"]) == when and skill["valid_from"] is None


def test_times_without_a_zone_or_in_the_future_are_refused_and_nothing_is_stored(
        client: TestClient, scope: dict[str, Any], raw: Driver) -> None:
    r = client.post(f"{base(scope)}/memories", json={"kind": "fact", "tier": "agent", "content": "naive",
                                                    "occurred_at": "2023-05-08T13:56:00"})
    assert r.status_code == 422 and r.json()["field"].endswith("occurred_at"), r.text
    future = datetime.now(UTC) + timedelta(hours=1)
    r = client.post(f"{base(scope)}/memories", json={"kind": "fact", "tier": "agent", "content": "future",
                                                    "occurred_at": iso(future)})
    assert r.status_code == 422 and r.json()["code"] == "occurred_in_future", r.text
    # a few minutes ahead is a clock's skew, not the future
    save(client, scope, "slightly fast clock", occurred_at=iso(datetime.now(UTC) + timedelta(minutes=2)))
    r = client.post(f"{base(scope)}/memories", json={"kind": "fact", "tier": "agent", "content": "backwards",
                                                    "valid_from": "2024-01-02T00:00:00Z",
                                                    "valid_until": "2024-01-01T00:00:00Z"})
    assert r.status_code == 422 and r.json()["code"] == "invalid_validity", r.text
    r = client.post(f"{base(scope)}/memories", json={"kind": "fact", "tier": "agent", "content": "ends before it began",
                                                    "occurred_at": "2024-01-02T00:00:00Z",
                                                    "valid_until": "2024-01-01T00:00:00Z"})
    assert r.status_code == 422 and r.json()["code"] == "invalid_validity", r.text
    n = raw.execute_query("MATCH (a:Memory {scope_id: $s}) RETURN count(a)", s=scope["id"]).records[0][0]
    assert n == 1  # only the skewed one


def test_list_and_search_bound_what_happened_when(client: TestClient, scope: dict[str, Any]) -> None:
    t0 = datetime(2023, 1, 1, tzinfo=UTC)
    made = [save(client, scope, f"sailing trip number {i}", occurred_at=iso(t0 + i * DAY)) for i in range(6)]
    window = {"occurred_after": iso(t0 + 2 * DAY), "occurred_before": iso(t0 + 5 * DAY)}
    r = client.get(f"{base(scope)}/memories", params={**window, "limit": 2})
    assert r.status_code == 200, r.text
    page = r.json()
    assert ids(page["items"]) == [made[2]["id"], made[3]["id"]] and page["next_cursor"]
    page2 = client.get(f"{base(scope)}/memories", params={**window, "limit": 2, "cursor": page["next_cursor"]}).json()
    assert ids(page2["items"]) == [made[4]["id"]] and page2["next_cursor"] is None
    # in created order the same filter holds
    created = client.get(f"{base(scope)}/memories", params={**window, "order": "created"}).json()
    assert sorted(ids(created["items"])) == sorted(m["id"] for m in made[2:5])
    hits = search(client, scope, "sailing trip", limit=10, **window)["items"]
    assert sorted(ids(hits)) == sorted(m["id"] for m in made[2:5])


# ---- supersession and valid time ---------------------------------------------------------------------------------

def test_explicit_supersedes_closes_the_older_validity_and_loses_nothing(client: TestClient,
                                                                        scope: dict[str, Any]) -> None:
    may = datetime(2024, 5, 1, tzinfo=UTC)
    sept = datetime(2024, 9, 1, tzinfo=UTC)
    london = save(client, scope, "Alice lives in London", kind="fact", valid_from=iso(may))
    paris = save(client, scope, "Alice lives in Paris", kind="fact", valid_from=iso(sept), supersedes=[london["id"]])
    old = client.get(f"{base(scope)}/memories/{london['id']}")
    assert old.status_code == 200
    old_rec = old.json()
    assert at(old_rec["valid_until"]) == sept and old_rec["conflicted"] is True and old_rec["revision"] == 2
    assert old_rec["content"] == "Alice lives in London" and old.headers["ETag"] == '"2"'
    history = client.get(f"{base(scope)}/memories/{london['id']}/history").json()["items"]
    assert [i["op"] for i in history if i["type"] == "event"] == ["save", "supersede"]
    revs = [i for i in history if i["type"] == "revision"]
    assert [r["revision"] for r in revs] == [1, 2] and revs[0]["valid_until"] is None
    assert at(revs[1]["valid_until"]) == sept
    # current truth: Paris; in June: London; everything with include_invalid
    assert ids(search(client, scope, "Alice lives")["items"]) == [paris["id"]]
    june = search(client, scope, "Alice lives", as_of=iso(datetime(2024, 6, 1, tzinfo=UTC)))
    assert ids(june["items"]) == [london["id"]] and at(june["view"]["as_of"]) == datetime(2024, 6, 1, tzinfo=UTC)
    assert sorted(ids(search(client, scope, "Alice lives", include_invalid=True)["items"])) == sorted(
        [london["id"], paris["id"]])
    listed = client.get(f"{base(scope)}/memories").json()
    assert london["id"] not in ids(listed["items"]) and paris["id"] in ids(listed["items"])
    every = client.get(f"{base(scope)}/memories", params={"include_invalid": "true"}).json()
    assert london["id"] in ids(every["items"]) and every["view"]["include_invalid"] is True
    # a load by id answers whatever its validity; as_of asks whether it held then
    assert client.get(f"{base(scope)}/memories/{london['id']}",
                      params={"as_of": iso(datetime(2024, 6, 1, tzinfo=UTC))}).status_code == 200
    r = client.get(f"{base(scope)}/memories/{london['id']}", params={"as_of": iso(datetime(2024, 10, 1, tzinfo=UTC))})
    assert r.status_code == 404 and r.json()["code"] == "not_valid_at"


def test_supersedes_refusals_roll_the_whole_save_back(client: TestClient, scope: dict[str, Any],
                                                      raw: Driver) -> None:
    later = save(client, scope, "the later fact", valid_from="2024-09-01T00:00:00Z")
    other = client.post("/v1/scopes", json={"namespace": scope["namespace"], "cognitive_owner": "other",
                                            "name": "x"}).json()
    foreign = save(client, other, "another scope's fact")
    page = client.post(f"{base(scope)}/knowledge", json={"title": "a page", "body": "b"}).json()
    before = raw.execute_query("MATCH (a:Memory {scope_id: $s}) RETURN count(a)", s=scope["id"]).records[0][0]
    for target in (foreign["id"], page["id"], "no-such-id"):
        r = client.post(f"{base(scope)}/memories", json={"kind": "fact", "tier": "agent", "content": "replaces",
                                                        "supersedes": [target]})
        assert r.status_code == 404 and r.json()["code"] == "supersedes_not_found", r.text
    r = client.post(f"{base(scope)}/memories", json={"kind": "fact", "tier": "agent", "content": "earlier one",
                                                    "valid_from": "2024-01-01T00:00:00Z", "supersedes": [later["id"]]})
    assert r.status_code == 409 and r.json()["code"] == "supersession_out_of_order", r.text
    after = raw.execute_query("MATCH (a:Memory {scope_id: $s}) RETURN count(a)", s=scope["id"]).records[0][0]
    assert after == before
    assert client.get(f"{base(scope)}/memories/{later['id']}").json()["valid_until"] is None
    assert client.get(f"{base(other)}/memories/{foreign['id']}").json()["conflicted"] is False


def test_an_update_closes_validity_or_says_what_it_replaces(client: TestClient, scope: dict[str, Any]) -> None:
    job = save(client, scope, "Bob works at Acme", valid_from="2020-01-01T00:00:00Z")
    r = client.patch(f"{base(scope)}/memories/{job['id']}", json={"valid_until": "2019-01-01T00:00:00Z"},
                     headers={"If-Match": '"1"'})
    assert r.status_code == 422 and r.json()["code"] == "invalid_validity", r.text
    r = client.patch(f"{base(scope)}/memories/{job['id']}", json={"valid_until": "2023-06-01T00:00:00Z"},
                     headers={"If-Match": '"1"'})
    assert r.status_code == 200 and r.json()["revision"] == 2, r.text
    assert at(r.json()["valid_until"]) == datetime(2023, 6, 1, tzinfo=UTC)
    assert job["id"] not in ids(search(client, scope, "Bob works")["items"])
    hobby = save(client, scope, "Carol paints", valid_from="2021-01-01T00:00:00Z")
    newer = save(client, scope, "Carol sculpts", valid_from="2022-01-01T00:00:00Z")
    r = client.patch(f"{base(scope)}/memories/{newer['id']}", json={"supersedes": [hobby["id"]]},
                     headers={"If-Match": '"1"'})
    assert r.status_code == 200, r.text
    old = client.get(f"{base(scope)}/memories/{hobby['id']}").json()
    assert at(old["valid_until"]) == datetime(2022, 1, 1, tzinfo=UTC) and old["conflicted"] is True


def test_the_negation_rule_closes_validity_only_forward_in_valid_time(client: TestClient,
                                                                     scope: dict[str, Any]) -> None:
    likes = save(client, scope, "I like coffee in the morning", kind="preference", subject="coffee",
                 occurred_at="2024-03-01T08:00:00Z")
    # imported late, from before: it cannot end what began after it
    early = save(client, scope, "I no longer like coffee in the morning", kind="preference", subject="coffee",
                 occurred_at="2023-03-01T08:00:00Z")
    assert client.get(f"{base(scope)}/memories/{likes['id']}").json()["valid_until"] is None
    assert early["conflicted"] is False
    stops = save(client, scope, "I no longer like coffee in the morning", kind="preference", subject="coffee")
    old = client.get(f"{base(scope)}/memories/{likes['id']}").json()
    assert old["conflicted"] is True and old["valid_until"] == stops["valid_from"]


# ---- the context call --------------------------------------------------------------------------------------------

def context(client: TestClient, scope: dict[str, Any], surface: str = "all", **extra: Any) -> dict[str, Any]:
    r = client.post(f"{base(scope)}/context", json={"surface": surface, **extra})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_context_holds_what_was_valid_and_recent_episodes_go_by_when_they_happened(
        client: TestClient, scope: dict[str, Any]) -> None:
    tea = save(client, scope, "prefers tea", kind="preference", valid_from="2024-01-01T00:00:00Z")
    coffee = save(client, scope, "prefers coffee", kind="preference", valid_from="2024-06-01T00:00:00Z",
                  supersedes=[tea["id"]])
    now = context(client, scope, "eager")
    assert ids(now["arms"]["preferences"]) == [coffee["id"]]
    march = context(client, scope, "eager", as_of="2024-03-01T00:00:00Z")
    assert ids(march["arms"]["preferences"]) == [tea["id"]]
    assert at(march["view"]["as_of"]) == datetime(2024, 3, 1, tzinfo=UTC) and march["view"]["known_at"] is None
    # a conversation imported today, from two years ago, is not the most recent episode
    recent = save(client, scope, "we talked about sailing", kind="episodic", occurred_at="2025-01-01T00:00:00Z")
    imported = save(client, scope, "we talked about chess", kind="episodic", occurred_at="2023-01-01T00:00:00Z")
    arms = context(client, scope, "eager")["arms"]
    assert ids(arms["recent_episodes"])[:2] == [recent["id"], imported["id"]]
    # as of 2024 the sailing talk had not happened yet
    arms = context(client, scope, "eager", as_of="2024-01-01T00:00:00Z")["arms"]
    assert ids(arms["recent_episodes"]) == [imported["id"]]


# ---- known_at: the store as it was -------------------------------------------------------------------------------

def test_known_at_reads_the_store_as_it_was(client: TestClient, scope: dict[str, Any]) -> None:
    note = save(client, scope, "the meeting is on Monday about budgets")
    time.sleep(0.05)
    t1 = datetime.now(UTC)
    time.sleep(0.05)
    r = client.patch(f"{base(scope)}/memories/{note['id']}", json={"content": "the meeting is on Tuesday about hiring"},
                     headers={"If-Match": '"1"'})
    assert r.status_code == 200
    later = save(client, scope, "the meeting room is booked")
    gone = save(client, scope, "a meeting note to forget")
    time.sleep(0.05)
    t2 = datetime.now(UTC)
    time.sleep(0.05)
    assert client.delete(f"{base(scope)}/memories/{gone['id']}").status_code == 200

    then = client.get(f"{base(scope)}/memories/{note['id']}", params={"known_at": iso(t1)})
    assert then.status_code == 200 and then.json()["content"] == "the meeting is on Monday about budgets"
    assert then.json()["revision"] == 1 and "known_at=" in then.headers["Cognition-View"]
    assert client.get(f"{base(scope)}/memories/{note['id']}").headers["Cognition-View"] == "current"
    assert client.get(f"{base(scope)}/memories/{note['id']}").json()["content"].endswith("hiring")
    r = client.get(f"{base(scope)}/memories/{later['id']}", params={"known_at": iso(t1)})
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    r = client.get(f"{base(scope)}/memories/{gone['id']}", params={"known_at": iso(t2)})
    assert r.status_code == 404 and r.json()["code"] == "artifact_erased" and r.json()["removed_at"]

    listed = client.get(f"{base(scope)}/memories", params={"known_at": iso(t1)}).json()
    assert ids(listed["items"]) == [note["id"]] and at(listed["view"]["known_at"]) == t1
    assert listed["items"][0]["content"].endswith("budgets")
    found = search(client, scope, "budgets", known_at=iso(t1))
    assert ids(found["items"]) == [note["id"]] and at(found["view"]["known_at"]) == t1
    assert search(client, scope, "budgets")["items"] == []  # the store as it is no longer says so
    assert ids(search(client, scope, "meeting", known_at=iso(t2), limit=10)["items"]) != []
    assert gone["id"] not in ids(search(client, scope, "meeting", known_at=iso(t2), limit=10)["items"])
    hist = client.get(f"{base(scope)}/memories/{note['id']}/history", params={"known_at": iso(t1)}).json()
    assert [i["revision"] for i in hist["items"] if i["type"] == "revision"] == [1]
    arms = context(client, scope, "all", query="meeting", known_at=iso(t1))
    assert ids(arms["arms"]["relevant_memories"]) == [note["id"]]
    assert arms["arms"]["relevant_memories"][0]["content"].endswith("budgets")
    # a read of the past is not a recall
    assert client.get(f"{base(scope)}/memories/{later['id']}").json()["recall_count"] == 1
    r = client.get(f"{base(scope)}/memories", params={"known_at": iso(datetime.now(UTC) + DAY)})
    assert r.status_code == 422 and r.json()["code"] == "known_at_in_future"


def test_both_clocks_together(client: TestClient, scope: dict[str, Any]) -> None:
    """What did we believe at t1 about 1 March? Then: tea. Later the store learned of coffee from 1 February."""
    tea = save(client, scope, "drinks tea", kind="preference", valid_from="2024-01-01T00:00:00Z")
    time.sleep(0.05)
    t1 = datetime.now(UTC)
    time.sleep(0.05)
    coffee = save(client, scope, "drinks coffee", kind="preference", valid_from="2024-02-01T00:00:00Z",
                  supersedes=[tea["id"]])
    march = "2024-03-01T00:00:00Z"
    believed = context(client, scope, "eager", as_of=march, known_at=iso(t1))["arms"]["preferences"]
    assert ids(believed) == [tea["id"]]
    known = context(client, scope, "eager", as_of=march)["arms"]["preferences"]
    assert ids(known) == [coffee["id"]]
    january = context(client, scope, "eager", as_of="2024-01-15T00:00:00Z")["arms"]["preferences"]
    assert ids(january) == [tea["id"]]


# ---- Neo4j Browser and the graph export --------------------------------------------------------------------------

def test_the_browser_slide_and_the_graph_export_show_both_clocks(client: TestClient, scope: dict[str, Any],
                                                                   raw: Driver) -> None:
    from pathlib import Path

    import cypher

    query = (Path(cypher.__file__).parent / "analyst" / "believed_at.cypher").read_text(encoding="utf-8")
    tea = save(client, scope, "drinks tea", kind="preference", valid_from="2024-01-01T00:00:00Z")
    time.sleep(0.05)
    t1 = datetime.now(UTC)
    time.sleep(0.05)
    coffee = save(client, scope, "drinks coffee", kind="preference", valid_from="2024-02-01T00:00:00Z",
                  supersedes=[tea["id"]])

    def believed(known_at: datetime) -> dict[str, dict[str, Any]]:
        rows = raw.execute_query(query, scope_id=scope["id"], known_at=iso(known_at),
                                 as_of="2024-03-01T00:00:00Z").records
        return {r["id"]: r.data() for r in rows}

    then = believed(t1)
    assert set(then) == {tea["id"]} and then[tea["id"]]["held_at_as_of"] is True
    assert then[tea["id"]]["revision"] == 1 and then[tea["id"]]["valid_until"] is None
    now = believed(datetime.now(UTC))
    assert now[coffee["id"]]["held_at_as_of"] is True and now[tea["id"]]["held_at_as_of"] is False
    assert now[tea["id"]]["revision"] == 2

    r = client.get(f"{base(scope)}/graph", params={"view": "refgraph", "format": "node-link"})
    assert r.status_code == 200, r.text
    graph = r.json()
    nodes = {n["id"]: n for n in graph["nodes"]}
    assert nodes[tea["id"]]["valid_until"].startswith("2024-02-01") and nodes[coffee["id"]]["occurred_at"]
    assert any(e["source"] == coffee["id"] and e["target"] == tea["id"] and e.get("type") == "SUPERSEDES"
               for e in graph["edges"]), graph["edges"]


# ---- time in queries ---------------------------------------------------------------------------------------------

def test_a_querys_time_resolves_against_now_and_ranks_what_happened_then(client: TestClient,
                                                                          scope: dict[str, Any]) -> None:
    now = datetime(2023, 6, 21, 12, tzinfo=UTC)  # a Wednesday: last week is 12-18 June
    then = save(client, scope, "we went camping by the lake", kind="episodic", occurred_at="2023-06-14T10:00:00Z")
    march = save(client, scope, "we went camping by the lake", kind="episodic", occurred_at="2023-03-08T10:00:00Z")
    got = search(client, scope, "camping last week", now=iso(now))
    assert ids(got["items"])[0] == then["id"]
    (span,) = got["view"]["resolved"]
    assert span["text"] == "last week" and at(span["start"]) == datetime(2023, 6, 12, tzinfo=UTC)
    assert at(span["end"]) == datetime(2023, 6, 19, tzinfo=UTC) and at(got["view"]["now"]) == now
    assert ids(search(client, scope, "camping in March", now=iso(now))["items"])[0] == march["id"]
    assert ids(search(client, scope, "三月 camping", now=iso(now))["items"])[0] == march["id"]
    # the context call ranks its relevant memories the same way; as_of defaults to the question's now
    arms = context(client, scope, "lazy", query="camping last week", now=iso(now))
    assert ids(arms["arms"]["relevant_memories"])[0] == then["id"] and at(arms["view"]["as_of"]) == now
    # without a time in the query, nothing is resolved
    assert search(client, scope, "camping", now=iso(now))["view"]["resolved"] == []
