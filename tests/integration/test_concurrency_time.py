"""Supersession under real overlap, against the served process (tests/served.py): a save that supersedes a record
races updates of that record, or another supersession of it. The older record is locked by a write and read after
the lock (cypher/fragments/supersede.cypher), so nothing is lost whichever commits first: its revisions are 1..k with
no number twice, at most one update naming a revision wins, the winner's content survives the supersession, and the
validity ends where the superseding record's begins (the earliest, when two supersede it)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.conftest import unique
from tests.served import Served, race

N = 6


def new_scope(c: httpx.Client) -> str:
    r = c.post("/v1/scopes", json={"namespace": unique("ns"), "cognitive_owner": unique("o"), "name": "race"})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def revisions(c: httpx.Client, path: str) -> list[int]:
    items = c.get(f"{path}/history").json()["items"]
    return [i["revision"] for i in items if i["type"] == "revision"]


@pytest.mark.parametrize("how", ["explicit", "negation"])
def test_a_supersession_racing_updates_loses_neither(server: Served, how: str) -> None:
    for round_ in range(3):  # a lost write shows in most rounds; three make a lucky pass unlikely
        with server.client() as c:
            sid = new_scope(c)
            base = f"/v1/scopes/{sid}/memories"
            r = c.post(base, json={"kind": "preference", "tier": "agent", "subject": "drink",
                                   "content": "I like green tea", "valid_from": "2024-01-01T00:00:00Z"})
            assert r.status_code == 201, r.text
            old = r.json()["id"]
        path = f"{base}/{old}"
        newer: dict[str, Any] = {"kind": "preference", "tier": "agent", "valid_from": "2024-06-01T00:00:00Z"}
        if how == "explicit":
            newer |= {"content": "I like black coffee", "supersedes": [old]}
        else:
            newer |= {"content": "I no longer like green tea", "subject": "drink"}

        def write(i: int, cl: httpx.Client) -> httpx.Response:
            if i == 0:
                return cl.post(base, json=newer)
            return cl.patch(path, json={"content": f"I like green tea, writer {i} round {round_}"},
                            headers={"If-Match": '"1"'})

        responses = race(N, write, make_client=server.client)
        assert responses[0].status_code == 201, responses[0].text
        updates = responses[1:]
        won = [r for r in updates if r.status_code == 200]
        assert len(won) <= 1 and all(r.status_code in (200, 412) for r in updates), [r.text for r in updates]
        with server.client() as c:
            now = c.get(path).json()
            revs = revisions(c, path)
        assert now["conflicted"] is True and now["valid_until"].startswith("2024-06-01"), now
        assert revs == list(range(1, len(revs) + 1)) and len(revs) == 2 + len(won), revs
        if won:  # the update's text survived the supersession that came after or before it
            assert now["content"] == won[0].json()["content"]
            assert now["revision"] == len(revs)
        else:
            assert now["content"] == "I like green tea"


def test_two_supersessions_of_one_record_close_it_at_the_earliest(server: Served) -> None:
    with server.client() as c:
        sid = new_scope(c)
        base = f"/v1/scopes/{sid}/memories"
        r = c.post(base, json={"kind": "fact", "tier": "agent", "content": "the office is in Leeds",
                               "valid_from": "2023-01-01T00:00:00Z"})
        old = r.json()["id"]
    starts = [f"2024-0{i + 1}-01T00:00:00Z" for i in range(N)]

    def supersede(i: int, cl: httpx.Client) -> httpx.Response:
        return cl.post(base, json={"kind": "fact", "tier": "agent", "content": f"the office moved, notice {i}",
                                   "valid_from": starts[i], "supersedes": [old]})

    responses = race(N, supersede, make_client=server.client)
    assert [r.status_code for r in responses] == [201] * N, [r.text for r in responses]
    with server.client() as c:
        now = c.get(f"{base}/{old}").json()
        revs = revisions(c, f"{base}/{old}")
    assert now["valid_until"].startswith("2024-01-01"), now
    assert revs == list(range(1, N + 2)), revs
