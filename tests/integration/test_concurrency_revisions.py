"""Optimistic concurrency under real overlap, against the served process (tests/served.py): of N concurrent
updates naming one revision exactly one wins, the rest answer 412 `revision_mismatch` with the winner's
revision, and the history holds revisions 1..k with no number twice — for every family and both kernels."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.conftest import unique
from tests.served import Served, race, statuses

N = 8

CREATE = {
    "memories": lambda: {"kind": "semantic", "tier": "agent", "content": "the deploy window is Friday 18:00"},
    "knowledge": lambda: {"title": "Deploys", "body": "部署窗口是周五晚上六点"},
    "skills": lambda: {"name": "deploy", "when_to_use": "when shipping", "steps": ["build", "ship"]},
    "working-state": lambda: {"content": "step 1 of 3"},
}
PATCH = {
    "memories": lambda i: {"content": f"writer {i}: the deploy window moved to slot {i}"},
    "knowledge": lambda i: {"body": f"写者 {i}：部署窗口改到第 {i} 个时段"},
    "skills": lambda i: {"steps": ["build", f"ship from writer {i}"]},
    "working-state": lambda i: {"content": f"writer {i} at step 2"},
    "kernels/agent": lambda i: {"content": f"I am agent revision from writer {i}"},
    "kernels/world": lambda i: {"content": f"世界模型 {i}"},
}


def new_scope(c: httpx.Client) -> str:
    r = c.post("/v1/scopes", json={"namespace": unique("ns"), "cognitive_owner": unique("o"), "name": "race"})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def target(c: httpx.Client, scope_id: str, family: str) -> str:
    """The path of a record to race on (a kernel exists with its scope)."""
    if family.startswith("kernels/"):
        return f"/v1/scopes/{scope_id}/{family}"
    r = c.post(f"/v1/scopes/{scope_id}/{family}", json=CREATE[family]())
    assert r.status_code == 201, r.text
    return f"/v1/scopes/{scope_id}/{family}/{r.json()['id']}"


@pytest.mark.parametrize("family", list(PATCH))
def test_of_n_concurrent_updates_naming_one_revision_exactly_one_wins(server: Served, family: str) -> None:
    with server.client() as c:
        scope_id = new_scope(c)
        path = target(c, scope_id, family)
        etag = c.get(path).headers["ETag"]
        start = int(etag.strip('"'))
    method = "PUT" if family.startswith("kernels/") else "PATCH"

    def write(i: int, cl: httpx.Client) -> httpx.Response:
        return cl.request(method, path, json=PATCH[family](i), headers={"If-Match": etag})

    for _ in range(3):  # a lost update shows in most rounds; three rounds make a lucky pass unlikely
        with server.client() as c:
            etag = c.get(path).headers["ETag"]
        rev = int(etag.strip('"'))
        responses = race(N, write, make_client=server.client)
        assert statuses(responses) == [200] + [412] * (N - 1), [r.text for r in responses]
        winner = next(r for r in responses if r.status_code == 200)
        assert winner.json()["revision"] == rev + 1
        for r in responses:
            if r.status_code == 412:
                body: dict[str, Any] = r.json()
                assert body["code"] == "revision_mismatch" and body["current_revision"] == rev + 1
        with server.client() as c:
            now = c.get(path).json()
        assert now["revision"] == rev + 1
        assert now == {**now, **{k: v for k, v in winner.json().items() if k not in ("recall_count", "accessed_at")}}
    with server.client() as c:
        hist = c.get(f"{path}/history")
        assert hist.status_code == 200, hist.text
    items = hist.json()["items"]
    revisions = [h["revision"] for h in items if h["type"] == "revision"]
    assert sorted(revisions) == list(range(1, start + 4)), revisions  # 1..k, none twice, no gap
    assert sum(1 for h in items if h["type"] == "event" and h["op"] == "update") == start + 2
