"""Every read-check-write against the served process with real overlap (tests/served.py): the rule each query's
header states (`// Concurrency rule`), tried with concurrent clients released by a barrier. Each scenario runs
a few rounds, because an unlocked check loses only when the requests interleave."""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import unique
from tests.served import Served, race, statuses

N = 8
ROUNDS = 3


def scope(c: httpx.Client, **policy: Any) -> dict[str, Any]:
    r = c.post("/v1/scopes", json={"namespace": unique("ns"), "cognitive_owner": unique("o"), "name": "race"})
    assert r.status_code == 201, r.text
    s: dict[str, Any] = r.json()
    if policy:
        assert c.put(f"/v1/scopes/{s['id']}/write-policy", json=policy).status_code == 200
    return s


def memory(c: httpx.Client, scope_id: str, content: str = "the build runs on Fridays", **kw: Any) -> dict[str, Any]:
    r = c.post(f"/v1/scopes/{scope_id}/memories", json={"kind": "semantic", "tier": "agent", "content": content,
                                                        **kw})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def events(c: httpx.Client, path: str, op: str) -> int:
    return sum(1 for h in c.get(f"{path}/history").json()["items"] if h["type"] == "event" and h["op"] == op)


def test_approve_and_reject_of_one_pending_record_one_wins(server: Served) -> None:
    with server.client() as c:
        s = scope(c, default="require_approval")
    for _ in range(ROUNDS):
        with server.client() as c:
            m = memory(c, s["id"])
        assert m["status"] == "pending"
        path = f"/v1/scopes/{s['id']}/memories/{m['id']}"

        def decide(i: int, cl: httpx.Client) -> httpx.Response:
            return cl.post(f"{path}/{'approve' if i % 2 else 'reject'}", json={})

        rs = race(N, decide, make_client=server.client)
        won = [r for r in rs if r.status_code in (200, 204)]
        assert len(won) == 1, [(r.status_code, r.text) for r in rs]
        rejected = won[0].status_code == 204
        for r in rs:
            if r in won:
                continue
            # a loser sees the winner: 409 not_pending, or — once a reject has made the record a tombstone — 404
            assert (r.status_code == 409 and r.json()["code"] == "not_pending") or \
                (rejected and r.status_code == 404), (r.status_code, r.text)
        with server.client() as c:
            if won[0].status_code == 200:  # approved: active, one approve event
                assert c.get(path).json()["status"] == "active"
                assert events(c, path, "approve") == 1 and events(c, path, "reject") == 0
            else:  # rejected: a tombstone, one reject event
                assert c.get(path).json()["code"] == "artifact_removed"
                assert events(c, path, "reject") == 1 and events(c, path, "approve") == 0


def test_delete_and_a_concurrent_dependency_never_both_succeed(server: Served) -> None:
    with server.client() as c:
        s = scope(c)
    for _ in range(ROUNDS * 2):
        with server.client() as c:
            target, dependant = memory(c, s["id"], "target"), memory(c, s["id"], "dependant")
        base = f"/v1/scopes/{s['id']}"

        def act(i: int, cl: httpx.Client) -> httpx.Response:
            if i == 0:
                return cl.delete(f"{base}/memories/{target['id']}")
            return cl.post(f"{base}/edges", json={"type": "DEPENDS_ON", "from_id": dependant["id"],
                                                  "to_id": target["id"]})

        deleted, linked = race(2, act, make_client=server.client)
        if deleted.status_code == 200:  # the delete came first: the edge found a tombstone and made nothing
            assert linked.status_code == 404, linked.text
            with server.client() as c:
                assert c.get(f"{base}/memories/{dependant['id']}/views/support").status_code == 200
        else:  # the edge came first: the delete saw the dependant
            assert deleted.status_code == 409 and deleted.json()["code"] == "has_dependents", deleted.text
            assert deleted.json()["dependents"] == [dependant["id"]] and linked.status_code == 201


def test_concurrent_saves_with_one_idempotency_key_write_once(server: Served) -> None:
    with server.client() as c:
        s = scope(c)
    for _ in range(ROUNDS):
        key = unique("idem")
        body = {"kind": "fact", "tier": "agent", "content": f"saved once under {key}"}

        def save(i: int, cl: httpx.Client) -> httpx.Response:
            return cl.post(f"/v1/scopes/{s['id']}/memories", json=body, headers={"Idempotency-Key": key})

        rs = race(N, save, make_client=server.client)
        assert statuses(rs) == [201] * N, [r.text for r in rs]
        assert len({r.json()["id"] for r in rs}) == 1
        assert sum(r.headers.get("Idempotent-Replayed") == "true" for r in rs) == N - 1
        with server.client() as c:
            listed = c.get(f"/v1/scopes/{s['id']}/memories", params={"limit": 100}).json()["items"]
        assert [m["id"] for m in listed if m["content"] == body["content"]] == [rs[0].json()["id"]]


def test_concurrent_recalls_are_all_counted(server: Served) -> None:
    with server.client() as c:
        s = scope(c)
        m = memory(c, s["id"], "recall me: the office wifi is cognition-guest")
    path = f"/v1/scopes/{s['id']}/memories/{m['id']}"
    for _ in range(ROUNDS):
        rs = race(N, lambda i, cl: cl.get(path), make_client=server.client)
        assert statuses(rs) == [200] * N
    searches = race(N, lambda i, cl: cl.post(f"/v1/scopes/{s['id']}/memories/search",
                                             json={"query": "office wifi"}), make_client=server.client)
    assert statuses(searches) == [200] * N
    context = race(N, lambda i, cl: cl.post(f"/v1/scopes/{s['id']}/context",
                                            json={"surface": "lazy", "query": "office wifi"}),
                   make_client=server.client)
    assert statuses(context) == [200] * N
    hits = sum(any(a["id"] == m["id"] for a in r.json()["arms"]["relevant_memories"]) for r in context)
    with server.client() as c:
        count = c.get(f"/v1/scopes/{s['id']}/memories").json()["items"][0]["recall_count"]
    assert hits == N
    assert count == ROUNDS * N + N + hits, count  # loads + search hits + context hits: none lost


def test_concurrent_revokes_keep_the_first_revocation(server: Served) -> None:
    with server.client() as c:
        r = c.post("/v1/keys", json={"role": "agent", "namespaces": [unique("ns")]})
        assert r.status_code == 201, r.text
        key_id = r.json()["id"]
    rs = race(N, lambda i, cl: cl.delete(f"/v1/keys/{key_id}"), make_client=server.client)
    assert statuses(rs) == [200] * N, [x.text for x in rs]
    assert len({x.json()["revoked_at"] for x in rs}) == 1  # every revoke reports the first one's time


def test_two_passes_on_one_partition_never_run_at_once(server: Served) -> None:
    with server.client() as c:
        s = scope(c)
        for i in range(30):
            memory(c, s["id"], f"memory {i} about partition leases")
    body = {"namespace": s["namespace"], "cognitive_owner": s["cognitive_owner"], "phases": ["archive"]}
    rs = race(N, lambda i, cl: cl.post("/v1/digest/passes", json=body), make_client=server.client)
    odd = [(r.status_code, r.text[:300]) for r in rs if r.status_code not in (201, 409)]
    assert not odd, odd
    assert all(r.json()["code"] == "digest_in_progress" for r in rs if r.status_code == 409)
    passes = [r.json()["pass"] for r in rs if r.status_code == 201]
    assert passes
    spans = sorted((p["started_at"], p["finished_at"]) for p in passes)
    for (_, end), (start, _) in zip(spans, spans[1:], strict=False):
        assert end <= start, spans  # one after another, never overlapping


def test_clearing_working_state_while_it_is_updated_answers_no_5xx(server: Served) -> None:
    with server.client() as c:
        s = scope(c)
    base = f"/v1/scopes/{s['id']}/working-state"
    for _ in range(ROUNDS):
        with server.client() as c:
            items = [c.post(base, json={"content": f"step {i}"}).json() for i in range(N - 1)]
            etags = {w["id"]: f'"{w["revision"]}"' for w in items}

        def act(i: int, cl: httpx.Client) -> httpx.Response:
            if i == N - 1:
                return cl.delete(base)
            w = items[i]
            return cl.patch(f"{base}/{w['id']}", json={"content": "step done"}, headers={"If-Match": etags[w["id"]]})

        rs = race(N, act, make_client=server.client)
        assert rs[-1].status_code == 200, rs[-1].text
        assert all(r.status_code in (200, 404) for r in rs[:-1]), [(r.status_code, r.text) for r in rs]
        with server.client() as c:
            assert c.get(base).json()["items"] == []  # whatever landed before the clear went with it


def test_a_remove_pass_and_a_restore_of_its_candidate_never_both_apply(server: Served) -> None:
    outcomes = set()
    for _ in range(ROUNDS):
        with server.client() as c:
            s = scope(c)
            base = f"/v1/scopes/{s['id']}/memories"
            a, b = memory(c, s["id"], "uses the staging database"), memory(c, s["id"], "the staging database")
            assert c.post(f"/v1/scopes/{s['id']}/edges",
                          json={"type": "DEPENDS_ON", "from_id": a["id"], "to_id": b["id"]}).status_code == 201
            assert c.delete(f"{base}/{b['id']}", params={"detach": "true"}).status_code == 200
            part = {"namespace": s["namespace"], "cognitive_owner": s["cognitive_owner"]}
            # The archive pass and an update of the same record at once: both land, nothing is lost.
            ag = c.get(f"{base}/{a['id']}").headers["ETag"]

            def archive_or_edit(i: int, cl: httpx.Client) -> httpx.Response:
                if i == 0:
                    return cl.post("/v1/digest/passes", json={**part, "phases": ["archive"]})
                return cl.patch(f"{base}/{a['id']}", json={"content": "uses the staging database (v2)"},
                                headers={"If-Match": ag})

            passed, edited = race(2, archive_or_edit, make_client=server.client)
            assert passed.status_code == 201 and edited.status_code == 200, (passed.text, edited.text)
            now = c.get(f"{base}/{a['id']}").json()
            assert now["status"] == "archived" and now["revision"] == 2 and now["content"].endswith("(v2)")

        def remove_or_restore(i: int, cl: httpx.Client) -> httpx.Response:
            if i == 0:
                return cl.post("/v1/digest/passes", json={**part, "phases": ["remove"]})
            return cl.post(f"{base}/{a['id']}/restore", json={})

        removed, restored = race(2, remove_or_restore, make_client=server.client)
        assert removed.status_code == 201, removed.text
        with server.client() as c:
            got = c.get(f"{base}/{a['id']}")
        if restored.status_code == 200:  # the restore came first: the remove decision was void
            assert got.status_code == 200 and got.json()["status"] == "active", got.text
            with server.client() as c:
                assert events(c, f"{base}/{a['id']}", "remove") == 0
            outcomes.add("restored")
        else:  # the pass came first: a tombstone, and the restore found nothing to restore
            assert restored.status_code in (404, 409), restored.text
            assert got.status_code == 404 and got.json()["code"] == "artifact_removed", got.text
            outcomes.add("removed")
    assert outcomes
