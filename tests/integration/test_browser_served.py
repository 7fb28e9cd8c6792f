"""Neo4j Browser is served by the managed test instance, which advertises its own addresses and names the
service's guide and style in the settings Browser reads on connect."""

from __future__ import annotations

import os

import httpx
import pytest
from neo4j import Driver

from graph.driver import Neo4jConfig
from service import neo4j_local

pytestmark = pytest.mark.skipif(bool(os.environ.get("COGNITION_TEST_NEO4J_URI")),
                                reason="needs the managed test instance (unset COGNITION_TEST_NEO4J_URI)")
INST = neo4j_local.TEST_INSTANCE


def test_browser_answers_on_the_test_instance(neo4j_config: Neo4jConfig) -> None:
    r = httpx.get(f"http://127.0.0.1:{INST.http_port}/browser/", timeout=10)
    assert r.status_code == 200
    assert "<title>Neo4j Browser</title>" in r.text


def test_discovery_names_the_instances_own_ports(neo4j_config: Neo4jConfig) -> None:
    discovery = httpx.get(f"http://127.0.0.1:{INST.http_port}/", headers={"Accept": "application/json"},
                          timeout=10).json()
    assert discovery["bolt_direct"] == f"bolt://127.0.0.1:{INST.bolt_port}"
    assert discovery["bolt_routing"] == f"neo4j://127.0.0.1:{INST.bolt_port}"
    assert discovery["transaction"].startswith(f"http://127.0.0.1:{INST.http_port}/")


def test_browser_settings_offer_the_guide_and_style(raw: Driver) -> None:
    config = {r["name"]: r["value"] for r in raw.execute_query("CALL dbms.clientConfig()").records}
    guide = neo4j_local.guide_url(INST.service_port)
    # Browser prefixes each `;`-separated command with `:`.
    assert config["browser.post_connect_cmd"] == f"style {guide}/style.grass; guide {guide}/auditor.html"
    allowed = config["browser.remote_content_hostname_whitelist"].split(",")
    assert "localhost" in allowed and "127.0.0.1" in allowed


def test_an_old_distribution_without_browser_is_not_reused() -> None:
    assert f"browser-{neo4j_local.BROWSER_VERSION}" in neo4j_local.dist_dir().name
    assert (neo4j_local.dist_dir() / "lib" / f"neo4j-browser-{neo4j_local.BROWSER_VERSION}.jar").exists()


def test_guide_url_follows_the_service_host_and_port(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COGNITION_BROWSER_GUIDE_URL", raising=False)
    assert neo4j_local.guide_url(8080) == "http://localhost:8080/browser-guide"
    assert neo4j_local.guide_url(9000, "0.0.0.0") == "http://localhost:9000/browser-guide"
    assert neo4j_local.guide_url(9000, "cognition.internal") == "http://cognition.internal:9000/browser-guide"
    monkeypatch.setenv("COGNITION_BROWSER_GUIDE_URL", "https://audit.example/browser-guide/")
    assert neo4j_local.guide_url(8080) == "https://audit.example/browser-guide"
    lines = neo4j_local.browser_conf(INST, neo4j_local.guide_url(8080))
    assert "browser.remote_content_hostname_whitelist=guides.neo4j.com,localhost,127.0.0.1,audit.example" in lines
