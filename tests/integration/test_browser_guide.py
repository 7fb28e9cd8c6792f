"""The auditor's guide and style the service serves to Neo4j Browser: every query on the guide is exactly a file
of cypher/analyst (and every such file is on it), the pages answer CORS for Browser's origin and only for it,
the style parses as Browser parses grass, the analyst queries answer against a real digest pass, and
`cognition explain` and the cleanup view link into Browser."""

from __future__ import annotations

import html.parser
import os
import subprocess
import sys
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient
from neo4j import Driver

import cypher
from digest.explain import WHY_PATH
from graph.driver import Neo4jConfig
from service import neo4j_local
from service.http import browser_guide
from service.http.routes.browser_guide import ALLOWED_HEADERS
from tests.conftest import unique

BROWSER_ORIGIN = f"http://127.0.0.1:{neo4j_local.TEST_INSTANCE.http_port}"


class _Runnables(html.parser.HTMLParser):
    """The text of every `pre.runnable` (what Browser's directive puts in the editor: textContent, trimmed)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self._depth = 0
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "pre" and "runnable" in (dict(attrs).get("class") or "").split():
            self._depth, self._text = 1, []
        elif self._depth:
            self._depth += 1

    def handle_endtag(self, tag: str) -> None:
        if self._depth:
            self._depth -= 1
            if not self._depth:
                self.blocks.append("".join(self._text).strip())

    def handle_data(self, data: str) -> None:
        if self._depth:
            self._text.append(data)


def runnables(page: str) -> list[str]:
    parser = _Runnables()
    parser.feed(page)
    return parser.blocks


def analyst_files() -> dict[str, str]:
    root = cypher.ROOT / "analyst"
    return {p.stem: p.read_text(encoding="utf-8").strip() for p in sorted(root.glob("*.cypher"))}


def test_every_query_on_the_guide_is_exactly_an_analyst_file(client: TestClient) -> None:
    r = client.get("/browser-guide/auditor.html", headers={"Authorization": ""})  # no key needed
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    blocks = runnables(r.text)
    queries = [b for b in blocks if not b.startswith(":param ")]
    files = analyst_files()
    assert sorted(queries) == sorted(files.values())  # each file once, nothing else, byte for byte
    assert r.text.count("<slide") == 1 + len(browser_guide.SLIDES)
    for title in ("How a digest pass decides", "Why was this archived?", "One pass's outcome",
                  "A partition's pass history", "A memory's lineage", "GC evictions and their RetentionScore",
                  "Quarantine: what the detector holds, and why"):
        assert title in r.text
    # each parameter a query names is set on its slide
    params = {b.split()[1] for b in blocks if b.startswith(":param ")}
    assert params == {"id", "pass_id", "namespace", "owner", "scope_id", "known_at", "as_of"}


def test_the_why_page_sets_the_artifact_id_and_holds_only_query_text(client: TestClient) -> None:
    aid = unique("a")
    r = client.get("/browser-guide" + WHY_PATH.format(id=aid), headers={"Authorization": ""})
    assert r.status_code == 200
    blocks = runnables(r.text)
    assert blocks[0] == f":param id => '{aid}'"
    assert blocks[1] == analyst_files()["decision_subgraph"]
    assert analyst_files()["why_archived"] in blocks and analyst_files()["lineage"] in blocks
    assert "<title>Why was " + aid in r.text
    assert client.get("/browser-guide/why/not%20an%20id.html").status_code == 422
    assert client.get("/browser-guide/why/" + "x" * 65 + ".html").status_code == 422


def test_cors_answers_browsers_origin_and_only_on_the_guide(client: TestClient) -> None:
    for path in ("/browser-guide/auditor.html", "/browser-guide/style.grass"):
        r = client.get(path, headers={"Origin": BROWSER_ORIGIN})
        assert r.headers["access-control-allow-origin"] == BROWSER_ORIGIN
        assert "access-control-allow-origin" not in client.get(path, headers={"Origin": "http://evil.example"}).headers
    pre = client.options("/browser-guide/auditor.html", headers={
        "Origin": "http://localhost:7474", "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "cache-control,pragma,sentry-trace"})
    assert pre.status_code == 204
    assert pre.headers["access-control-allow-origin"] == "http://localhost:7474"
    assert {"cache-control", "pragma"} <= {h.strip() for h in pre.headers["access-control-allow-headers"].split(",")}
    assert set(ALLOWED_HEADERS) >= {"cache-control", "pragma"}
    refused = client.options("/browser-guide/auditor.html", headers={
        "Origin": BROWSER_ORIGIN, "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization"})
    assert refused.status_code == 400 and "access-control-allow-origin" not in refused.headers
    api = client.get("/v1/whoami", headers={"Origin": BROWSER_ORIGIN})
    assert "access-control-allow-origin" not in api.headers


def parse_grass(text: str) -> dict[str, dict[str, str]]:
    """Browser 5.24's grass parser (grassUtils.parseGrassCSS): quotes dropped, `{}` nest one binding level, each
    property split on `:` — a value holding `:` or `;` is silently lost, so the test refuses them."""
    rules: dict[str, dict[str, str]] = {}
    for block in text.split("}"):
        if not block.strip():
            continue
        selector, _, body = block.partition("{")
        props: dict[str, str] = {}
        for prop in body.replace("'", "").replace('"', "").split(";"):
            if prop.strip():
                key_value = prop.split(":")
                assert len(key_value) == 2, f"{selector.strip()}: {prop.strip()!r} would be dropped"
                props[key_value[0].strip()] = key_value[1].strip()
        rules[selector.strip()] = props
    return rules


def test_the_style_parses_and_sets_the_audit_labels_apart(client: TestClient) -> None:
    r = client.get("/browser-guide/style.grass")
    assert r.status_code == 200
    # captions hold `{property}` bindings: take them out before splitting blocks on braces
    text = r.text
    for binding in ("{kind}", "{phase}", "{action}", "{rule}", "{family}", "{status}", "{revision}", "{name}"):
        text = text.replace(binding, "")
    rules = parse_grass(text)
    for label in ("node.Decision", "node.Tombstone", "node.DigestPass", "node.Memory", "node.Knowledge",
                  "node.Skill", "relationship.CITES", "relationship.DEPENDS_ON"):
        assert label in rules
    colours = {label: rules[label]["color"] for label in ("node.Decision", "node.Tombstone", "node.DigestPass",
                                                          "node.Memory")}
    assert len(set(colours.values())) == len(colours)  # each reads apart
    assert int(rules["node.Decision"]["diameter"].removesuffix("px")) > int(
        rules["node.Memory"]["diameter"].removesuffix("px"))
    assert "{rule}" in r.text and "{status}" in r.text  # decisions show their rule, artifacts their status


def _mem(client: TestClient, scope: dict[str, Any], content: str) -> str:
    r = client.post(f"/v1/scopes/{scope['id']}/memories", json={"kind": "semantic", "tier": "agent",
                                                                 "content": content})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def _broken_chain(client: TestClient, scope: dict[str, Any]) -> dict[str, Any]:
    """a DEPENDS_ON b DEPENDS_ON c, c deleted (a tombstone), then an archive pass: a and b go, citing c."""
    a, b, c = (_mem(client, scope, f"{name}: a fact") for name in ("deploy", "staging", "mount"))
    for x, y in ((a, b), (b, c)):
        r = client.post(f"/v1/scopes/{scope['id']}/edges", json={"type": "DEPENDS_ON", "from_id": x, "to_id": y})
        assert r.status_code == 201, r.text
    assert client.delete(f"/v1/scopes/{scope['id']}/memories/{c}", params={"detach": "true"}).status_code in (200,
                                                                                                           204)
    r = client.post("/v1/digest/passes", json={"namespace": scope["namespace"],
                                               "cognitive_owner": scope["cognitive_owner"], "phases": ["archive"]})
    assert r.status_code == 201, r.text
    return {"a": a, "b": b, "c": c, "pass_id": r.json()["pass"]["id"]}


def test_the_analyst_queries_answer_a_real_pass(client: TestClient, scope: dict[str, Any], raw: Driver) -> None:
    ids = _broken_chain(client, scope)
    q = analyst_files()

    def run(name: str, **params: Any) -> list[dict[str, Any]]:
        return [r.data() for r in raw.execute_query(q[name], params).records]

    graph = raw.execute_query(q["decision_subgraph"], {"id": ids["a"]}).records
    assert len(graph) == 1
    row = graph[0]
    assert row["d"]["rule"] == "broken_reference" and row["d"]["action"] == "archive"
    assert row["e"]["id"] == ids["c"] and "Tombstone" in row["e"].labels  # the tombstone it cites
    assert [n["id"] for n in row["path"].nodes] == [ids["a"], ids["b"], ids["c"]]  # the recorded evidence path

    why = run("why_archived", id=ids["a"])
    assert len(why) == 1
    assert why[0]["rule"] == "broken_reference" and why[0]["pass_id"] == ids["pass_id"]
    assert why[0]["evidence_path"] == [ids["a"], ids["b"], ids["c"]]
    assert why[0]["broken_reference"] == ids["c"]
    assert why[0]["evidence"] == [{"id": ids["c"], "family": "memory", "is": "tombstone"}]
    assert run("why_archived", id=unique("nothing")) == []

    outcome = run("pass_outcome", pass_id=ids["pass_id"])
    assert [(r["action"], r["rule"], r["decisions"]) for r in outcome] == [("archive", "broken_reference", 2)]
    assert len(run("pass_graph", pass_id=ids["pass_id"])) == 2
    history = run("recent_passes", namespace=scope["namespace"], owner=scope["cognitive_owner"])
    assert [h["id"] for h in history] == [ids["pass_id"]] and history[0]["archived"] == 2
    assert any(r["d"]["id"].startswith(ids["pass_id"]) for r in run("latest_decisions"))

    lineage = raw.execute_query(q["lineage"], {"id": ids["a"]}).records
    rels = {rel.type for rec in lineage if rec["path"] is not None for rel in rec["path"].relationships}
    assert rels == {"HAS_REVISION", "DEPENDS_ON"}
    reached = {n["id"] for rec in lineage if rec["path"] is not None for n in rec["path"].nodes if "id" in n}
    assert {ids["b"], ids["c"]} <= reached


def test_gc_evictions_show_their_retention_score(client: TestClient, scope: dict[str, Any], raw: Driver) -> None:
    for i in range(3):
        _mem(client, scope, f"note {i}")
    r = client.post("/v1/gc/runs", json={"namespace": scope["namespace"], "cognitive_owner": scope["cognitive_owner"],
                                         "max_entries": 1})
    assert r.status_code == 201, r.text
    evicted = {d["artifact_id"] for d in r.json()["decisions"] if d["rule"] == "capacity_eviction"}
    assert len(evicted) == 2
    rows = [x.data() for x in raw.execute_query(analyst_files()["gc_evictions"],
                                                {"namespace": scope["namespace"],
                                                 "owner": scope["cognitive_owner"]}).records]
    assert {x["memory"] for x in rows} == evicted
    for x in rows:
        assert x["rule"] == "capacity_eviction" and x["status"] == "archived"
        assert 0.0 <= x["retention_score"] <= 1.0


def test_the_cleanup_view_links_to_browser_on_the_why_slide(client: TestClient, scope: dict[str, Any]) -> None:
    ids = _broken_chain(client, scope)
    r = client.get(f"/v1/scopes/{scope['id']}/memories/{ids['a']}/views/cleanup")
    assert r.status_code == 200, r.text
    link = urlsplit(r.json()["browser_link"])
    assert f"{link.scheme}://{link.netloc}{link.path}" == neo4j_local.TEST_INSTANCE.browser_url
    query = parse_qs(link.query)
    assert query["cmd"] == ["guide"]
    guide = query["arg"][0]
    assert guide.endswith(WHY_PATH.format(id=ids["a"])) and "&" not in guide and "#" not in guide
    assert client.get(urlsplit(guide).path).status_code == 200  # the page it opens is served here


@pytest.mark.skipif(bool(os.environ.get("COGNITION_TEST_NEO4J_URI")), reason="needs the managed test instance")
def test_cognition_explain_prints_the_browser_link(client: TestClient, scope: dict[str, Any],
                                                   neo4j_config: Neo4jConfig) -> None:
    ids = _broken_chain(client, scope)
    env = dict(os.environ, NEO4J_URI=neo4j_config.uri, NEO4J_PASSWORD=neo4j_config.password)
    proc = subprocess.run([sys.executable, "-m", "service.cli", "explain", ids["a"]], env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert '"rule": "broken_reference"' in proc.stdout
    line = next(ln for ln in proc.stderr.splitlines() if ln.startswith("Open in Neo4j Browser"))
    link = line.split(": ", 1)[1]
    assert link.startswith(neo4j_local.TEST_INSTANCE.browser_url + "?cmd=guide&arg=")
    assert link.endswith(f"{ids['a']}.html")
    assert f'"browser_link": "{link}"' in proc.stdout
