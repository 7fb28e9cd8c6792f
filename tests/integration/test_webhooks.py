"""Webhooks against a real HTTP receiver (a threaded `http.server` in the test): it fails with 500, then times out,
then comes back — afterwards every event has arrived, in order, each signature verifies, and nothing is lost across
a SIGKILL and restart of a served replica; a receiver that stops listening for a minute
(COGNITION_TEST_WEBHOOK_DOWN_S) gets every event once it is back. Retries use the small backoff
tests/integration/conftest.py sets."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import MintKey, bearer, unique
from tests.served import Served, free_port


class Receiver:
    """Answers each POST as `mode` says: "ok" (200, recorded), "fail" (500) or "slow" (answers after the
    service's timeout). Keeps every request it answered 200, with its headers."""

    def __init__(self) -> None:
        self.mode = "ok"
        self.accepted: list[tuple[dict[str, str], str]] = []
        self.hits = {"ok": 0, "fail": 0, "slow": 0}
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers["content-length"])).decode()
                with receiver.lock:
                    mode = receiver.mode
                    receiver.hits[mode] += 1
                if mode == "slow":
                    time.sleep(2.0)  # the service waits 1 s (COGNITION_WEBHOOK_TIMEOUT_S)
                status = 500 if mode == "fail" else 200
                if mode == "ok":
                    with receiver.lock:
                        receiver.accepted.append(({k.lower(): v for k, v in self.headers.items()}, body))
                try:
                    self.send_response(status)
                    self.send_header("content-length", "0")
                    self.end_headers()
                except OSError:
                    pass  # the service gave up waiting

            def log_message(self, *args: Any) -> None:
                pass

        self.handler = Handler
        self.port = free_port()
        self.up()
        self.url = f"http://127.0.0.1:{self.port}/hook"

    def up(self) -> None:
        """Listen (again) on the receiver's port."""
        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), self.handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def down(self) -> None:
        """Stop listening: the service's connections are refused until `up`."""
        self.close()

    def events(self) -> list[dict[str, Any]]:
        """The events accepted, each once (a repeat after a lost answer has the same webhook-id), in arrival order."""
        seen: dict[str, dict[str, Any]] = {}
        with self.lock:
            for headers, body in self.accepted:
                seen.setdefault(headers["webhook-id"], json.loads(body)["data"])
        return list(seen.values())

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    try:
        yield r
    finally:
        r.close()


def verify(secret: str, headers: dict[str, str], body: str) -> bool:
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{headers['webhook-id']}.{headers['webhook-timestamp']}.{body}".encode()
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    return any(hmac.compare_digest(sig.removeprefix("v1,"), expected)
               for sig in headers["webhook-signature"].split(" ") if sig.startswith("v1,"))


def wait_for(cond: Any, timeout: float = 60.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return
        time.sleep(0.1)
    pytest.fail(f"timed out waiting for {what}")


def save(c: Any, scope_id: str, content: str) -> str:
    r = c.post(f"/v1/scopes/{scope_id}/memories", json={"kind": "fact", "tier": "agent", "content": content})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def test_deliveries_survive_failures_timeouts_and_a_restart(served: Served, receiver: Receiver) -> None:
    with served.client() as c:
        s = c.post("/v1/scopes", json={"namespace": unique("ns"), "cognitive_owner": "o", "name": "hooks"}).json()
        r = c.post("/v1/webhooks", json={"namespace": s["namespace"], "url": receiver.url})
        assert r.status_code == 201, r.text
        hook = r.json()
        secret, hook_id = hook["secret"], hook["id"]
        assert secret.startswith("whsec_")
        listed = c.get("/v1/webhooks").json()["items"]
        assert any(h["id"] == hook_id for h in listed) and all("secret" not in h for h in listed)

        receiver.mode = "fail"
        saved = [save(c, s["id"], f"fact {i}") for i in range(3)]
        wait_for(lambda: receiver.hits["fail"] >= 3, what="three failed attempts")
        receiver.mode = "slow"
        wait_for(lambda: any(d["status"] is None and d["error"] for d in
                             c.get(f"/v1/webhooks/{hook_id}/deliveries").json()["items"]), what="a timed-out attempt")
        receiver.mode = "fail"
        # SIGKILL a replica and start it again while the receiver is still failing; more changes meanwhile
        served.kill()
    served.start()
    with served.client() as c:
        saved += [save(c, s["id"], f"after restart {i}") for i in range(3)]
        receiver.mode = "ok"
        wait_for(lambda: len(receiver.events()) >= len(saved), what="every event delivered")
        got = receiver.events()
        assert [e["record_id"] for e in got] == saved
        assert [e["position"] for e in got] == sorted(e["position"] for e in got)
        assert all(e["namespace"] == s["namespace"] and e["kind"] == "save" for e in got)
        with receiver.lock:
            accepted = list(receiver.accepted)
        assert all(verify(secret, h, body) for h, body in accepted)
        assert not verify("whsec_" + base64.b64encode(b"x" * 32).decode(), *accepted[0])
        assert all(h["webhook-id"] == json.loads(body)["data"]["id"] for h, body in accepted)

        wait_for(lambda: c.get(f"/v1/webhooks/{hook_id}").json()["cursor"] == got[-1]["cursor"],
                 what="the cursor at the last event")
        log = c.get(f"/v1/webhooks/{hook_id}/deliveries", params={"limit": 1000}).json()["items"]
        assert {d["status"] for d in log if not d["ok"]} >= {500}
        assert any(d["status"] is None and d["error"] for d in log), log  # the timeout
        assert {d["first"] for d in log if d["ok"]} >= {e["position"] for e in got}
        state = c.get(f"/v1/webhooks/{hook_id}").json()
        assert state["failures"] == 0

        # replay from the first event's cursor: the rest arrive again, in order
        before = len(receiver.accepted)
        r = c.post(f"/v1/webhooks/{hook_id}/replay", json={"after": got[0]["cursor"]})
        assert r.status_code == 200, r.text
        wait_for(lambda: len(receiver.accepted) - before >= len(got) - 1, what="the replay")
        with receiver.lock:
            again = [json.loads(b)["data"]["record_id"] for _, b in receiver.accepted[before:]]
        assert again[:len(got) - 1] == saved[1:]

        assert c.delete(f"/v1/webhooks/{hook_id}").status_code == 200
        assert c.get(f"/v1/webhooks/{hook_id}").status_code == 404


DOWN_S = float(os.environ.get("COGNITION_TEST_WEBHOOK_DOWN_S", "60"))


def test_a_receiver_down_for_a_minute_gets_every_event_afterwards(served: Served, receiver: Receiver) -> None:
    """The receiver stops listening (connections refused) for a minute while changes go on; once it is back, every
    event arrives, once each in feed order, each signature verifying."""
    with served.client() as c:
        s = c.post("/v1/scopes", json={"namespace": unique("ns"), "cognitive_owner": "o", "name": "down"}).json()
        r = c.post("/v1/webhooks", json={"namespace": s["namespace"], "url": receiver.url})
        assert r.status_code == 201, r.text
        secret, hook_id = r.json()["secret"], r.json()["id"]
        saved = [save(c, s["id"], "before the outage")]
        wait_for(lambda: len(receiver.events()) == 1, what="the first delivery")
        receiver.down()
        down_at = time.monotonic()
        while time.monotonic() - down_at < DOWN_S:
            saved.append(save(c, s["id"], f"during the outage {len(saved)}"))
            time.sleep(DOWN_S / 12)
        wait_for(lambda: (c.get(f"/v1/webhooks/{hook_id}").json()["failures"] or 0) > 0, what="a refused attempt")
        assert len(receiver.events()) == 1  # nothing arrived while it was down
        receiver.up()
        saved.append(save(c, s["id"], "after the outage"))
        wait_for(lambda: len(receiver.events()) >= len(saved), what="every event after the outage")
        got = receiver.events()
        assert [e["record_id"] for e in got] == saved
        assert [e["position"] for e in got] == sorted(e["position"] for e in got)
        with receiver.lock:
            accepted = list(receiver.accepted)
        assert all(verify(secret, h, body) for h, body in accepted)
        log = c.get(f"/v1/webhooks/{hook_id}/deliveries", params={"limit": 1000}).json()["items"]
        assert any(d["status"] is None and d["error"] for d in log), log  # the refused connections
        assert c.delete(f"/v1/webhooks/{hook_id}").status_code == 200


def test_a_kind_filter_and_webhook_access(client: TestClient, mint_key: MintKey, receiver: Receiver) -> None:
    ns = unique("ns")
    s = client.post("/v1/scopes", json={"namespace": ns, "cognitive_owner": "o", "name": "hooks"}).json()
    r = client.post("/v1/webhooks", json={"namespace": ns, "url": receiver.url, "kinds": ["update"]})
    assert r.status_code == 201, r.text
    hook = r.json()
    m = save(client, s["id"], "the cache is warm")
    assert client.patch(f"/v1/scopes/{s['id']}/memories/{m}", json={"content": "the cache is cold"},
                        headers={"If-Match": '"1"'}).status_code == 200
    wait_for(lambda: len(receiver.events()) >= 1, what="the update")
    time.sleep(0.5)
    assert [(e["kind"], e["record_id"]) for e in receiver.events()] == [("update", m)]
    assert "the cache" not in json.dumps(receiver.accepted)

    # operators of the namespace only; another namespace's webhook does not exist for them
    agent, operator, other = mint_key("agent", [ns]), mint_key("operator", [ns]), mint_key("operator", [unique("x")])
    assert client.get("/v1/webhooks", headers=bearer(agent)).status_code == 403
    assert client.get(f"/v1/webhooks/{hook['id']}", headers=bearer(operator)).status_code == 200
    r = client.get(f"/v1/webhooks/{hook['id']}", headers=bearer(other))
    assert r.status_code == 404 and r.json()["code"] == "webhook_not_found"
    assert client.get("/v1/webhooks", headers=bearer(other)).json()["items"] == []
    r = client.post("/v1/webhooks", json={"namespace": ns, "url": receiver.url}, headers=bearer(other))
    assert r.status_code == 404 and r.json()["code"] == "namespace_not_found"
    r = client.post("/v1/webhooks", json={"namespace": ns, "url": "not a url"})
    assert r.status_code == 422
    r = client.post("/v1/webhooks", json={"namespace": ns, "url": receiver.url, "kinds": ["nope"]})
    assert r.status_code == 422
    assert client.delete(f"/v1/webhooks/{hook['id']}").status_code == 200
