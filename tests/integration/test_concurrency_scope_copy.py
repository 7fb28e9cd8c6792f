"""The served process's scope copies (service/search/scope_index.py) under real overlap (tests/served.py): saves,
deletes and searches of one scope from concurrent clients, released by a barrier, so copies are brought up to date by
deltas while other writes commit, some of them out of order. Afterwards every memory saved is found first by its
own word, and no deleted one is found."""

from __future__ import annotations

import secrets

import httpx

from tests.conftest import unique
from tests.served import Served, race

N = 12
ROUNDS = 6


def _word() -> str:
    return "qx" + secrets.token_hex(5)  # one token (lexical.tokens), in no other memory


def _search(c: httpx.Client, scope_id: str, word: str) -> list[str]:
    r = c.post(f"/v1/scopes/{scope_id}/memories/search", json={"query": word, "limit": 5})
    assert r.status_code == 200, r.text
    return [h["id"] for h in r.json()["items"]]


def test_concurrent_saves_deletes_and_searches_leave_every_memory_findable(server: Served) -> None:
    with server.client() as c:
        r = c.post("/v1/scopes", json={"namespace": unique("ns"), "cognitive_owner": unique("o"), "name": "copy"})
        assert r.status_code == 201, r.text
        sid = r.json()["id"]
        saved: dict[str, str] = {}  # word -> id

        def save(cl: httpx.Client) -> None:
            kind = "episodic" if len(saved) % 2 else "semantic"  # episodes lend their neighbours a share of a score
            for _ in range(5):  # the detector may hold a random word (pending, never searched): take another
                word = _word()
                r = cl.post(f"/v1/scopes/{sid}/memories", json={"kind": kind, "tier": "agent",
                                                                 "content": f"the note about {word} and the tram"})
                assert r.status_code == 201, r.text
                if r.json()["status"] == "active":
                    saved[word] = r.json()["id"]
                    return
            raise AssertionError(f"five saves held in a row: {r.text}")

        for _ in range(12):
            save(c)
        first = next(iter(saved))
        assert _search(c, sid, first)[:1] == [saved[first]]  # the copy is loaded
    deleted: set[str] = set()
    for _ in range(ROUNDS):
        victims = list(saved.values())[:2 * ROUNDS][len(deleted):len(deleted) + 2]
        words = list(saved)

        def act(i: int, cl: httpx.Client) -> None:
            if i < 2:
                assert cl.delete(f"/v1/scopes/{sid}/memories/{victims[i]}").status_code == 200
                deleted.add(victims[i])
            elif i < 8:
                save(cl)
            else:
                _search(cl, sid, words[(i * 7) % len(words)])

        race(N, act, make_client=server.client)
    with server.client() as c:
        for word, aid in saved.items():
            hits = _search(c, sid, word)  # its own word ranks it first; a neighbouring episode may follow
            assert (aid not in hits) if aid in deleted else (hits[:1] == [aid]), (word, aid in deleted, hits)
    assert len(deleted) == 2 * ROUNDS and len(saved) == 12 + 6 * ROUNDS
