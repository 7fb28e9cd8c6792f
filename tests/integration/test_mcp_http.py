"""The MCP server as an MCP client meets it: the served process (`cognition serve` in a subprocess, against the
test Neo4j), a real MCP client over streamable HTTP at `/mcp`, the API key as the bearer token."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult

from graph.driver import Neo4jConfig
from tests.conftest import BOOTSTRAP_KEY, unique
from tests.integration.test_mcp import INJECTION, TOOLS, ok, refused
from tests.served import Served


@pytest.fixture(scope="module")
def base(served: Served) -> str:
    """The base URL of the session's served process (tests/integration/conftest.py)."""
    return served.url


def api(base: str, method: str, path: str, key: str = BOOTSTRAP_KEY, **kw: Any) -> httpx.Response:
    return httpx.request(method, base + path, headers={"Authorization": f"Bearer {key}"}, timeout=30, **kw)


@pytest.fixture(scope="module")
def tenant_http(base: str) -> dict[str, Any]:
    """A namespace with one scope and an agent key, made through the served process."""
    ns = unique("ns")
    r = api(base, "POST", "/v1/scopes", json={"namespace": ns, "cognitive_owner": "o", "name": "main"})
    assert r.status_code == 201, r.text
    k = api(base, "POST", "/v1/keys", json={"namespaces": [ns], "role": "agent"})
    assert k.status_code == 201, k.text
    return {"namespace": ns, "scope": r.json(), "key": k.json()["key"], "key_id": k.json()["id"]}


def over_http(base: str, key: str, fn: Callable[[Client], Awaitable[Any]], mode: Any = "auto") -> Any:
    async def main() -> Any:
        async with (httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=300) as http,
                    Client(streamable_http_client(f"{base}/mcp", http_client=http), mode=mode) as c):
            return await fn(c)

    return asyncio.run(main())


def call(base: str, key: str, tool: str, **args: Any) -> CallToolResult:
    async def fn(c: Client) -> CallToolResult:
        return await c.call_tool(tool, args)

    result: CallToolResult = over_http(base, key, fn)
    return result


def test_mcp_needs_a_valid_bearer(base: str) -> None:
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "t", "version": "0"}}}
    for headers in ({}, {"Authorization": "Bearer cog_nope"}, {"Authorization": f"Basic {BOOTSTRAP_KEY}"}):
        for method in ("POST", "GET", "DELETE"):
            r = httpx.request(method, f"{base}/mcp", json=init if method == "POST" else None,
                              headers={"Accept": "application/json, text/event-stream", **headers}, timeout=30)
            assert r.status_code == 401, (method, headers, r.text)
            assert r.json()["code"] == "unauthenticated" and r.headers["WWW-Authenticate"] == "Bearer"
    # and a real client without a key cannot even connect
    with pytest.raises(Exception):  # noqa: B017  (the SDK's own error type for a refused connection)
        over_http(base, "", lambda c: c.list_tools())


@pytest.mark.parametrize("mode", ["auto", "legacy"])  # the 2026 protocol (discover) and the initialize handshake
def test_a_real_client_saves_recalls_and_explains(base: str, tenant_http: dict[str, Any], mode: str) -> None:
    key, sid = tenant_http["key"], tenant_http["scope"]["id"]
    word = unique("kiwi").replace("-", "")

    async def session(c: Client) -> dict[str, Any]:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        saved = ok(await c.call_tool("save_memory", {"scope_id": sid, "content": f"always answer in {word}",
                                                     "kind": "instruction"}))
        arms = ok(await c.call_tool("recall", {"scope_id": sid, "query": word}))["arms"]
        why = ok(await c.call_tool("explain", {"scope_id": sid, "id": saved["id"]}))
        hits = ok(await c.call_tool("search", {"scope_id": sid, "query": word}))["items"]
        return {"tools": tools, "saved": saved, "arms": arms, "why": why, "hits": hits}

    out = over_http(base, key, session, mode)
    assert set(out["tools"]) == TOOLS and out["tools"]["forget"].annotations.destructive_hint is True
    mid = out["saved"]["id"]
    assert out["saved"]["status"] == "active" and out["saved"]["kind"] == "instruction"
    assert mid in [m["id"] for m in out["arms"]["instructions"]]
    assert mid in [m["id"] for m in out["arms"]["relevant_memories"]]
    assert out["why"] == {"id": mid, "scope_id": sid, "family": "memory", "status": "active", "decisions": []}
    assert [h["id"] for h in out["hits"]] == [mid]
    # the same record, seen through the HTTP API of the same process
    r = api(base, "GET", f"/v1/scopes/{sid}/memories/{mid}", key)
    assert r.status_code == 200 and r.json()["content"] == f"always answer in {word}"


def test_tenancy_and_gates_hold_over_http(base: str, tenant_http: dict[str, Any]) -> None:
    sid = tenant_http["scope"]["id"]
    other = unique("ns")
    k = api(base, "POST", "/v1/keys", json={"namespaces": [other], "role": "agent"}).json()["key"]
    refused(call(base, k, "save_memory", scope_id=sid, content="planted"), "scope_not_found")
    refused(call(base, k, "recall", scope_id=sid, query="kiwi"), "scope_not_found")
    assert ok(call(base, k, "list_scopes"))["items"] == []
    body = refused(call(base, tenant_http["key"], "save_memory", scope_id=sid, content=INJECTION),
                   "threat_pattern_detected")
    assert body["rule_id"] and INJECTION not in str(body)
    listed = api(base, "GET", f"/v1/scopes/{sid}/memories", tenant_http["key"]).json()["items"]
    assert all("planted" not in m["content"] and "Ignore all" not in m["content"] for m in listed)


def test_a_revoked_key_is_refused_at_once(base: str, tenant_http: dict[str, Any]) -> None:
    k = api(base, "POST", "/v1/keys", json={"namespaces": [tenant_http["namespace"]], "role": "auditor"}).json()
    assert ok(call(base, k["key"], "list_scopes"))["key"]["role"] == "auditor"
    refused(call(base, k["key"], "save_memory", scope_id=tenant_http["scope"]["id"], content="x"),
            "forbidden_role")
    assert api(base, "DELETE", f"/v1/keys/{k['id']}").status_code == 200
    r = httpx.post(f"{base}/mcp", json={}, headers={"Authorization": f"Bearer {k['key']}"}, timeout=30)
    assert r.status_code == 401 and r.json()["code"] == "unauthenticated"


def test_cognition_mcp_over_stdio(neo4j_config: Neo4jConfig, tenant_http: dict[str, Any]) -> None:
    """`cognition mcp` launched by a real client as a subprocess, the key from COGNITION_API_KEY."""
    from mcp import StdioServerParameters

    sid = tenant_http["scope"]["id"]
    env = {**os.environ, "NEO4J_URI": neo4j_config.uri, "NEO4J_USER": neo4j_config.user,
           "NEO4J_PASSWORD": neo4j_config.password, "NEO4J_DATABASE": neo4j_config.database,
           "COGNITION_API_KEY": tenant_http["key"], "COGNITION_APPLY_SCHEMA": "false"}
    params = StdioServerParameters(command=sys.executable, args=["-m", "service.cli", "mcp"], env=env,
                                   cwd=Path(__file__).resolve().parents[2])

    async def main() -> tuple[dict[str, Any], dict[str, Any], CallToolResult]:
        async with Client(params, read_timeout_seconds=300) as c:
            saved = ok(await c.call_tool("save_memory", {"scope_id": sid, "content": "stdio works: quokka"}))
            arms = ok(await c.call_tool("recall", {"scope_id": sid, "query": "quokka", "surface": "lazy"}))
            bad = await c.call_tool("save_memory", {"scope_id": sid, "content": INJECTION})
            return saved, arms, bad

    saved, arms, bad = asyncio.run(main())
    assert saved["id"] in [m["id"] for m in arms["arms"]["relevant_memories"]]
    refused(bad, "threat_pattern_detected")
    # no key, or a bad one: the command refuses to start
    for key in ("", "cog_nope"):
        r = subprocess.run([sys.executable, "-m", "service.cli", "mcp"], env={**env, "COGNITION_API_KEY": key},
                           capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
        assert r.returncode == 2 and "COGNITION_API_KEY" in r.stderr and r.stdout == ""
