"""`/browser-guide`: the auditor's guide and style that Neo4j Browser loads (service/http/browser_guide).

Open (no key): the pages hold query text and nothing stored. Browser fetches them from its own origin (the
Neo4j HTTP port), so they answer CORS for Browser's origins — loopback on any port, plus
`COGNITION_BROWSER_ORIGINS` — and a preflight for the headers Browser sends with a guide request
(`cache-control`, `pragma`). Only these routes carry CORS headers; the API does not.
"""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import APIRouter, Path, Request, Response
from fastapi.responses import HTMLResponse, PlainTextResponse

from service.http import browser_guide
from service.http.browser_guide import guide_base
from service.settings import Settings

PREFIX = "/browser-guide"
router = APIRouter(prefix=PREFIX, include_in_schema=False)
_LOOPBACK = re.compile(r"^https?://(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$")
# What Browser 5.24 sends with a guide or style request: cache-control and pragma (guides), and Sentry's tracing
# headers, which its bundled error reporter adds to every fetch.
ALLOWED_HEADERS = ("cache-control", "pragma", "sentry-trace", "baggage", "content-type")
ArtifactId = Annotated[str, Path(pattern=browser_guide.ID.pattern, max_length=64)]


def _origin_allowed(request: Request) -> str | None:
    origin = request.headers.get("origin")
    if not origin:
        return None
    settings: Settings = request.app.state.settings
    extra = {o.strip().rstrip("/") for o in settings.browser_origins.split(",") if o.strip()}
    return origin if _LOOPBACK.match(origin) or origin in extra else None


def _cors(request: Request, response: Response) -> Response:
    origin = _origin_allowed(request)
    if origin:
        response.headers["Access-Control-Allow-Origin"] = origin
    response.headers["Vary"] = "Origin"
    response.headers["Cache-Control"] = "no-cache"
    return response


@router.get("/auditor.html")
async def auditor_guide(request: Request) -> Response:
    return _cors(request, HTMLResponse(browser_guide.guide(guide_base(request.app.state.settings))))


@router.get(browser_guide.why_route())
async def why_guide(request: Request, artifact_id: ArtifactId) -> Response:
    page = browser_guide.why_guide(guide_base(request.app.state.settings), artifact_id)
    return _cors(request, HTMLResponse(page))


@router.get("/style.grass")
async def style(request: Request) -> Response:
    return _cors(request, PlainTextResponse(browser_guide.STYLE))


@router.options("/{path:path}")
async def preflight(request: Request, path: str) -> Response:
    """CORS preflight: a GET from an allowed origin with Browser's guide headers."""
    method = request.headers.get("access-control-request-method", "")
    asked = [h.strip().lower() for h in request.headers.get("access-control-request-headers", "").split(",")
             if h.strip()]
    origin = _origin_allowed(request)
    refused = [h for h in asked if h not in ALLOWED_HEADERS]
    if not origin or method != "GET" or refused:
        why = "origin not allowed" if not origin else f"method {method!r}" if method != "GET" else f"headers {refused}"
        return PlainTextResponse(f"preflight refused: {why}", status_code=400, headers={"Vary": "Origin"})
    return Response(status_code=204, headers={
        "Access-Control-Allow-Origin": origin, "Access-Control-Allow-Methods": "GET",
        "Access-Control-Allow-Headers": ", ".join(ALLOWED_HEADERS), "Access-Control-Max-Age": "600",
        "Vary": "Origin"})
