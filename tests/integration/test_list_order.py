"""Listing reads a page, not the scope (cypher/artifact/list.cypher): it walks the range index (scope_id, family,
status, created_at) from the cursor on and stops after the page. Held to the query it replaced — every row of the
scope filtered, then sorted by (created_at, id) — on random scopes: the same pages, in the same order, cursor after
cursor, for every filter. Times are drawn from a few values, so equal created_at (ordered by id) are common."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from neo4j import Driver

import cypher
from service.usecases.runtime import utcnow
from tests.conftest import unique

# The query list.cypher replaced: the oracle of its order and filters.
REFERENCE = """
MATCH (a:Artifact)
WHERE a.scope_id = $scope_id AND a.family = $family AND a.status = $status
  AND ($kind IS NULL OR a.kind = $kind)
  AND ($tier IS NULL OR a.tier = $tier)
  AND ($tag IS NULL OR $tag IN a.tags)
  AND ($created_after IS NULL OR a.created_at >= $created_after)
  AND ($created_before IS NULL OR a.created_at < $created_before)
  AND ($cursor_at IS NULL OR a.created_at > $cursor_at OR (a.created_at = $cursor_at AND a.id > $cursor_id))
RETURN {id: a.id} AS artifact, a.created_at AS created_at
ORDER BY a.created_at, a.id
LIMIT $limit
"""

OFFSETS = [0, 1, 60, 3600, 86400]  # seconds before now: few values, many ties
LABELS = {"memory": "Memory", "knowledge": "Knowledge", "skill": "Skill"}

row_st = st.fixed_dictionaries({
    "family": st.sampled_from(["memory"] * 4 + ["knowledge", "skill"]),
    "kind": st.sampled_from(["fact", "episodic", "preference"]),
    "tier": st.sampled_from(["session", "agent", "role"]),
    "status": st.sampled_from(["active"] * 4 + ["pending", "archived"]),
    "tags": st.sampled_from([[], ["a"], ["a", "b"], ["b"]]),
    "created_s": st.sampled_from(OFFSETS),
    "micro": st.sampled_from([0, 0, 0, 1, 500]),
    "id": st.integers(0, 10**6),  # ids drawn, so id order and insertion order differ
})
filters_st = st.fixed_dictionaries({
    "family": st.sampled_from(["memory", "memory", "knowledge"]),
    "status": st.sampled_from(["active", "active", "archived"]),
    "kind": st.sampled_from([None, None, "fact", "episodic"]),
    "tier": st.sampled_from([None, None, "agent"]),
    "tag": st.sampled_from([None, None, "a", "b"]),
    "after_s": st.sampled_from([None, None, 60, 3600]),
    "before_s": st.sampled_from([None, None, 0, 1, 60]),
    "limit": st.integers(1, 5),
})


def _page(raw: Driver, query: str, params: dict[str, Any]) -> list[tuple[str, Any]]:
    records = raw.execute_query(query, params).records
    return [(r["artifact"]["id"], r["created_at"]) for r in records]


def _pages(raw: Driver, query: str, params: dict[str, Any]) -> list[list[str]]:
    out: list[list[str]] = []
    cursor: tuple[Any, Any] = (None, None)
    for _ in range(40):
        page = _page(raw, query, {**params, "cursor_at": cursor[0], "cursor_id": cursor[1]})
        out.append([i for i, _ in page])
        if len(page) < params["limit"]:
            return out
        # As the service's cursor carries it (service.wire.list_position): ISO text made a datetime again, so it goes
        # back with its offset. (The driver hydrates +00:00 as pytz's UTC, which it sends back as the zone
        # "UTC", and Cypher's `=` does not equate a zone with an offset.)
        cursor = (datetime.fromisoformat(page[-1][1].to_native().isoformat()), page[-1][0])
    raise AssertionError("more than 40 pages")


# list.cypher returns the artifact row; for the comparison it also returns the cursor's time as a DateTime.
FAST = cypher.compose("artifact/list").replace("RETURN (", "RETURN a.created_at AS created_at, (", 1)


def _scope_with(client: TestClient, raw: Driver, rows: list[dict[str, Any]]) -> tuple[str, Any]:
    """A fresh scope holding `rows` (written raw, in the order given), and the `now` their times count back from."""
    r = client.post("/v1/scopes", json={"namespace": unique("ns"), "cognitive_owner": "oracle", "name": "s"})
    assert r.status_code == 201, r.text
    sid = r.json()["id"]
    now = utcnow()
    props = [{"id": f"{sid}-{row['id']:07d}", "scope_id": sid, "family": row["family"], "status": row["status"],
              "kind": row["kind"], "tier": row["tier"], "tags": row["tags"], "content": "x", "revision": 1,
              "created_at": now - timedelta(seconds=row["created_s"], microseconds=row["micro"]),
              "updated_at": now, "accessed_at": now, "trust": 0.5, "recall_count": 0} for row in rows]
    raw.execute_query("UNWIND $rows AS r CREATE (a:Artifact:$(r.label)) SET a = r.props",
                      rows=[{"label": LABELS[p["family"]], "props": p} for p in props])
    return sid, now


def _params(sid: str, limit: int, **filters: Any) -> dict[str, Any]:
    # occurred_at bounds and validity (as_of) are not drawn here: tests/integration/test_time.py pages by them
    return {"scope_id": sid, "family": "memory", "status": "active", "kind": None, "tier": None, "tag": None,
            "created_after": None, "created_before": None, "occurred_after": None, "occurred_before": None,
            "as_of": None, "limit": limit, **filters}


def test_rows_saved_at_one_instant_page_by_id(client: TestClient, raw: Driver) -> None:
    rows = [{"family": "memory", "kind": "fact", "tier": "agent", "status": "active", "tags": [], "created_s": s,
             "micro": 0, "id": i} for i, s in [(9, 60), (7, 60), (8, 0), (5, 60), (3, 60), (4, 0), (1, 60)]]
    sid, _ = _scope_with(client, raw, rows)
    pages = _pages(raw, FAST, _params(sid, 2))
    assert pages == _pages(raw, REFERENCE, _params(sid, 2))
    assert [i[-2:] for page in pages for i in page] == ["01", "03", "05", "07", "09", "04", "08"]
    assert [len(p) for p in pages] == [2, 2, 2, 1]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(rows=st.lists(row_st, max_size=30, unique_by=lambda r: r["id"]), filters=filters_st)
def test_pages_are_exactly_the_pages_of_the_query_it_replaced(client: TestClient, raw: Driver,
                                                             rows: list[dict[str, Any]],
                                                             filters: dict[str, Any]) -> None:
    assert cypher.compose("artifact/list") != FAST
    sid, now = _scope_with(client, raw, rows)
    params = _params(sid, filters["limit"], family=filters["family"], status=filters["status"], kind=filters["kind"],
                     tier=filters["tier"], tag=filters["tag"],
                     created_after=None if filters["after_s"] is None else now - timedelta(seconds=filters["after_s"]),
                     created_before=None if filters["before_s"] is None
                     else now - timedelta(seconds=filters["before_s"]))
    want = _pages(raw, REFERENCE, params)
    assert _pages(raw, FAST, params) == want


def test_a_page_walks_the_created_at_index_and_stops_after_the_page(client: TestClient, raw: Driver) -> None:
    params = {"scope_id": "s", "family": "memory", "status": "active", "kind": None, "tier": None, "tag": None,
              "created_after": None, "created_before": None, "cursor_at": None, "cursor_id": None, "limit": 51}
    plan = raw.execute_query("EXPLAIN " + cypher.compose("artifact/list"), params).summary.plan
    assert plan is not None
    ops: list[tuple[str, str]] = []

    def walk(p: Any) -> None:
        ops.append((p["operatorType"].split("@")[0], str(p.get("args", {}).get("Details", ""))))
        for c in p.get("children", []):
            walk(c)

    walk(plan)
    names = [o for o, _ in ops]
    assert "PartialTop" in names and "Top" not in names and "Sort" not in names, names
    [seek] = [d for o, d in ops if o == "NodeIndexSeek"]
    assert "(scope_id, family, status, created_at)" in seek and "created_at >=" in seek, seek
