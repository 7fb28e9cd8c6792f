"""The API docs pages work offline: `/docs` (Swagger UI) and `/redoc` reference only this server's own URLs, and
every one of them answers 200 with the asset (from the installed fastapi-offline package), not a CDN."""

from __future__ import annotations

import re
import shutil
import tempfile
from urllib.parse import urlparse

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.served import Served

_URL = re.compile(r"""(?:src|href|spec-url)\s*=\s*["']([^"']+)["']|url\s*:\s*["']([^"']+)["']""")


def _urls(html: str) -> list[str]:
    return [a or b for a, b in _URL.findall(html)]


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_docs_page_references_only_local_urls_that_answer(client: TestClient, page: str) -> None:
    r = client.get(page, headers={"Authorization": ""})  # open, like the OpenAPI document
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    urls = _urls(r.text)
    assert urls, r.text
    assert not re.search(r"https?://|//cdn|fonts\.googleapis", r.text), "a remote URL in the page"
    for url in urls:
        parsed = urlparse(url)
        assert not parsed.scheme and not parsed.netloc and url.startswith("/"), url
        asset = client.get(url, headers={"Authorization": ""})
        assert asset.status_code == 200, url
        if url.endswith(".js"):
            assert "javascript" in asset.headers["content-type"] and len(asset.content) > 100_000, url
        elif url.endswith(".css"):
            assert asset.headers["content-type"].startswith("text/css") and len(asset.content) > 10_000, url
        elif url.endswith(".json"):
            assert asset.json()["openapi"].startswith("3.1")
    assert "/openapi.json" in urls


def test_swagger_ui_is_a_version_that_renders_openapi_3_1(client: TestClient) -> None:
    """FastAPI writes OpenAPI 3.1, which Swagger UI renders from 5.0 on (4.x shows an empty page)."""
    html = client.get("/docs").text
    js = client.get(next(u for u in _urls(html) if u.endswith("swagger-ui-bundle.js"))).text
    version = re.search(r'PACKAGE_VERSION:"(\d+)\.(\d+)\.(\d+)"', js)
    assert "SwaggerUIBundle" in js and version is not None and int(version.group(1)) >= 5, version
    assert client.get("/openapi.json").json()["openapi"].startswith("3.1")
    assert client.get("/docs-assets/nothing-here.js").status_code == 404


def _chromium() -> str | None:
    return next((p for p in (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")) if p), None)


@pytest.mark.skipif(_chromium() is None, reason="needs headless Chromium: apt-get install chromium")
def test_docs_page_renders_in_headless_chromium_with_no_other_host_reachable(served: Served) -> None:
    """A real browser, every host but 127.0.0.1 unresolvable: Swagger UI renders the whole API from the served
    process alone (operation blocks, the graph export route among them), with no 'Failed to load'. Playwright
    drives the system Chromium and waits for the rendered operation (a fixed --dump-dom could dump before
    Swagger UI had rendered on a loaded machine)."""
    from playwright.sync_api import sync_playwright

    assert httpx.get(f"{served.url}/openapi.json", timeout=60).status_code == 200  # generated once, up front
    with tempfile.TemporaryDirectory() as profile, sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(
            profile, executable_path=str(_chromium()), headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"])
        try:
            page = ctx.new_page()
            page.goto(f"{served.url}/docs", timeout=120_000)
            page.wait_for_selector('[data-path="/v1/scopes/{scope_id}/graph"]', timeout=120_000)
            dom = page.content()
        finally:
            ctx.close()
    assert len(re.findall(r'class="opblock-summary-path"', dom)) >= 40
    assert "Failed to load" not in dom and "OAS 3.1" in dom
