"""End to end in a real browser: headless Chromium (Debian's package) driven by Playwright for Python.

A digest pass archives an artifact through a broken reference; Browser, served by the test instance, connects
to that instance (the address discovery advertises), runs the style and the guide on connect, opens the guide's
"why archived" page from the cleanup view's link, runs its queries and draws the decision, its rule and the
broken reference. The screenshot is kept under `.cognition/artifacts/`.

Playwright because its Python package drives a system Chromium (`executable_path`) without a browser download
of its own, and waits on the page's own elements rather than on sleeps. Bounded: every wait has a timeout and the
whole test must finish within 3 minutes.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from graph.driver import Neo4jConfig
from service import neo4j_local
from service.settings import Settings
from tests.conftest import BOOTSTRAP_KEY, bearer
from tests.served import InThread

CHROMIUM = os.environ.get("COGNITION_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
INST = neo4j_local.TEST_INSTANCE
BUDGET = 180.0  # seconds, the whole test
WAIT = 60_000  # ms, any one element


@pytest.fixture(scope="module")
def chromium() -> str:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium is not installed at {CHROMIUM}: apt-get install chromium (or set COGNITION_CHROMIUM)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip("Playwright for Python is not installed: pip install -e '.[dev]'")
    return CHROMIUM


@pytest.fixture(scope="module")
def served(settings: Settings, neo4j_config: Neo4jConfig, client: TestClient) -> Iterator[str]:
    """The service on the port the test instance's Browser loads its guide from (a real HTTP server)."""
    if neo4j_local.instance_for(neo4j_config.uri) is not INST:
        pytest.skip("needs the managed test instance: its Browser is what is tested")
    with InThread(settings.model_copy(update={"apply_schema_on_start": False}), port=INST.service_port) as url:
        yield url


def _archived_through_a_broken_reference(api: httpx.Client, scope: dict[str, Any]) -> dict[str, str]:
    base = f"/v1/scopes/{scope['id']}"
    ids = []
    for text in ("The deploy script reads the staging config", "Staging config lives in config/staging.yaml",
                 "config/ is mounted from the ops repo"):
        r = api.post(f"{base}/memories", json={"kind": "semantic", "tier": "agent", "content": text})
        assert r.status_code == 201, r.text
        ids.append(r.json()["id"])
    a, b, c = ids
    for x, y in ((a, b), (b, c)):
        assert api.post(f"{base}/edges", json={"type": "DEPENDS_ON", "from_id": x, "to_id": y}).status_code == 201
    assert api.delete(f"{base}/memories/{c}", params={"detach": "true", "reason": "ops repo retired"}).is_success
    r = api.post("/v1/digest/passes", json={"namespace": scope["namespace"],
                                            "cognitive_owner": scope["cognitive_owner"], "phases": ["archive"]})
    assert r.status_code == 201, r.text
    decided = {d["artifact_id"]: d for d in r.json()["decisions"]}
    assert decided[a]["rule"] == "broken_reference" and decided[a]["path"] == [a, b, c]
    link = api.get(f"{base}/memories/{a}/views/cleanup").json()["browser_link"]
    return {"a": a, "b": b, "c": c, "link": link}


def test_browser_draws_why_an_artifact_was_archived(chromium: str, served: str, scope: dict[str, Any],
                                                    neo4j_config: Neo4jConfig) -> None:
    from playwright.sync_api import sync_playwright

    started = time.monotonic()
    with httpx.Client(base_url=served, headers=bearer(BOOTSTRAP_KEY), timeout=60) as api:
        ids = _archived_through_a_broken_reference(api, scope)
    assert ids["link"].startswith(INST.browser_url + "?cmd=guide&arg=")
    shots = neo4j_local.state_dir() / "artifacts"
    shots.mkdir(parents=True, exist_ok=True)
    shot = shots / "browser-why-archived.png"

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.set_default_timeout(WAIT)
            page.goto(INST.browser_url, wait_until="domcontentloaded")
            # discovery advertises this instance's own Bolt port
            address = page.locator("input[data-testid=boltaddress]")
            address.wait_for()
            assert address.input_value().endswith(f"127.0.0.1:{INST.bolt_port}")
            page.locator("input[data-testid=username]").fill(neo4j_config.user)
            page.locator("input[data-testid=password]").fill(neo4j_config.password)
            page.locator("[data-testid=connect]").click()
            # on connect: the guide opens in the sidebar and the style is applied (Browser keeps it)
            page.locator("[data-testid=guidesDrawer]").get_by_text("Cognition: the auditor's guide").first.wait_for()
            # Polled from here: Browser's CSP (script-src 'self') forbids the eval behind a string
            # wait_for_function once it has to poll (the check passed or failed by timing); page.evaluate runs
            # through the DevTools protocol, which the CSP does not govern.
            style_by = time.monotonic() + WAIT / 1000
            while "Decision" not in (page.evaluate("localStorage.getItem('neo4j.grass') || ''") or ""):
                assert time.monotonic() < style_by, "Browser never stored the Cognition style (neo4j.grass)"
                time.sleep(0.2)

            # the cleanup view's link: the guide opened on this artifact's "why archived" page, its id set
            page.goto(ids["link"], wait_until="domcontentloaded")
            page.get_by_text("neo4j$").first.wait_for()  # connected again (Browser kept the connection)
            drawer = page.locator("[data-testid=guidesDrawer]")
            drawer.get_by_text("Why was this archived?").first.wait_for()
            runnable = drawer.locator("pre.runnable")
            assert runnable.nth(0).inner_text().strip() == f":param id => '{ids['a']}'"
            runnable.nth(0).locator("i").first.click()  # the play icon: run it
            page.locator("[data-testid=rawParamData]").get_by_text(ids["a"]).first.wait_for()
            runnable.nth(1).locator("i").first.click()  # decision_subgraph.cypher

            overview = page.locator("[data-testid=vizInspector]")
            for testid, shown in (("node-label-Decision", "Decision (1)"), ("node-label-Tombstone", "Tombstone (1)"),
                                  ("node-label-DigestPass", "DigestPass (1)"), ("node-label-Memory", "Memory (2)"),
                                  ("relationship-type-CITES", "CITES (1)"),
                                  ("relationship-type-DEPENDS_ON", "DEPENDS_ON (2)")):
                item = overview.locator(f"[data-testid=property-details-overview-{testid}]")
                item.wait_for()
                assert item.inner_text().strip() == shown
            # the overview is filled before the force layout draws: wait for the fifth node, then count
            nodes = page.locator("svg g.node")
            nodes.nth(4).wait_for()
            assert nodes.count() == 5  # pass, decision, the artifact, the one between, the tombstone
            captions = " ".join(" ".join(t.split()) for t in page.locator("svg g.node text").all_text_contents())
            assert "broken_reference" in captions  # the decision, captioned with its rule
            assert "tombstone memory" in captions  # the broken reference: the deleted memory's tombstone
            assert captions.count("archived semantic memory") == 2  # the artifact and the one it depends on
            # the picture: the inspector folded away, the graph fitted to its frame
            page.locator("[aria-label='Collapse the node properties display']").first.click()
            page.locator("[aria-label='zoom-to-fit']").first.click()
            page.locator("[data-testid=stream]").evaluate("e => { e.scrollTop = 0 }")
            page.wait_for_timeout(1500)  # let the force layout settle
            page.screenshot(path=str(shot))

            # the same decision as a table: rule, evidence path, the broken reference
            runnable.nth(2).locator("i").first.click()  # why_archived.cypher
            table = page.locator("[data-testid=frame]").first
            table.get_by_text(ids["c"]).first.wait_for()
            text = table.inner_text()
            assert "broken_reference" in text and "tombstone" in text and ids["b"] in text
        finally:
            browser.close()
    print(f"\nscreenshot: {shot}")
    if os.environ.get("COGNITION_README_SHOT"):  # refresh the README's picture: COGNITION_README_SHOT=docs/…png
        shutil.copyfile(shot, os.environ["COGNITION_README_SHOT"])
    elapsed = time.monotonic() - started
    assert elapsed < BUDGET, f"took {elapsed:.0f} s"
