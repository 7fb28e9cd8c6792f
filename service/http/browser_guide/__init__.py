"""The auditor's guide inside Neo4j Browser, and the style that goes with it.

Browser runs `:style <base>/style.grass` and `:guide <base>/auditor.html` on connect (the managed Neo4j's
`browser.post_connect_cmd`, service/neo4j_local/__init__.py). The guide is a deck of `<slide>`s; every query on it is a
file of `cypher/analyst/`, put into the page as it is when the page is served (nothing is copied by hand), in a
`pre.runnable` block: a click puts it in Browser's editor, the play icon beside it runs it. Parameters are
`:param` blocks whose value follows an input box on the slide (Browser's `value-for` / `value-key` binding).

`why_guide(id)` is the same deck opened on "why was this archived" with the artifact's id filled in: the page
`cognition explain` and the `cleanup` view link to. The pages hold no data, only query text and the id they
were asked for, so they are served without a key.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cypher
from digest.explain import WHY_PATH, browser_link
from service import neo4j_local
from service.settings import Settings

STYLE = (Path(__file__).parent / "style.grass").read_text(encoding="utf-8")
ID = re.compile(r"^[A-Za-z0-9-]{1,64}$")  # the artifact id format of the API's paths
_PARAM = re.compile(r":param (\w+) =>")
_PARAM_DOC = re.compile(r"\s*:param \w+ => '[^']*'")
_KIND = re.compile(r"^Neo4j Browser(?: \((graph|table)\))?: ")


@dataclass(frozen=True, slots=True)
class AnalystQuery:
    name: str
    text: str  # the whole file, header comment included: what an analyst pastes
    summary: str  # the header's prose
    params: tuple[str, ...]


@cache
def analyst_query(name: str) -> AnalystQuery:
    text = cypher.load(f"analyst/{name}").strip()
    header = [ln.lstrip("/ ").rstrip() for ln in text.splitlines() if ln.lstrip().startswith("//")]
    prose = _PARAM_DOC.sub("", " ".join(ln for ln in header if not ln.startswith("No parameters")))
    return AnalystQuery(name, text, _KIND.sub("", prose).strip(),
                        tuple(dict.fromkeys(_PARAM.findall("\n".join(header)))))


@dataclass(frozen=True, slots=True)
class Slide:
    key: str
    title: str
    prose: str  # trusted HTML, ours
    queries: tuple[str, ...] = ()


_HOW = Slide("how", "How a digest pass decides", """
<p>A pass works on one partition (<code>namespace</code>, <code>cognitive_owner</code>) and never compares
across partitions. Its <b>archive phase</b> looks at active memories, knowledge pages and skills (kernels and
working state never) and applies the first rule that holds:</p>
<ol>
<li><b>broken_reference</b> &mdash; a <code>DEPENDS_ON</code> path, direct or transitive, ends at a
<b>tombstone</b> or at an archived, removed or conflicted artifact. Evidence: the path and the broken node.</li>
<li><b>conflicted</b> &mdash; a newer entry of the same subject explicitly negates it
(<code>SUPERSEDES</code>). Evidence: the superseding entries.</li>
<li><b>stale</b> &mdash; a role-tier memory with no recall for 30 days or more.</li>
</ol>
<p><b>keep</b>: healthy inbound support (<code>SUPPORTS</code> from an active, non-stale, non-conflicted
artifact) turns the decision into <code>keep</code>, citing the supporters.</p>
<p>The <b>remove phase</b> only turns into tombstones what an earlier, finished pass archived and is still
eligible. Archiving and removing in one pass is refused. <b>GC</b> archives by TTL per tier
(<code>ttl_expired</code>) and, above a partition's cap, the lowest RetentionScore first
(<code>capacity_eviction</code>); kinds constraint, instruction and environment are never candidates.</p>
""")

_GRAPH = Slide("graph", "Decisions are graph facts", """
<p>Every decision is written in the same transaction as the change it explains:</p>
<p><code>(:DigestPass)-[:DECIDED]-&gt;(:Decision {action, rule, path})-[:ABOUT]-&gt;(artifact)</code><br>
<code>(:Decision)-[:CITES]-&gt;(evidence)</code></p>
<p>With the style: passes are blue, decisions large and orange (captioned action and rule), tombstones black with a red
ring, <code>CITES</code> thick red, <code>DEPENDS_ON</code> black; an artifact's caption starts with its status
(<i>archived</i>, <i>active</i>, <i>removed</i>). Browser styles by label only, so status is in the caption.</p>
""", ("latest_decisions",))

_WHY = Slide("why", "Why was this archived?", """
<p>One artifact's decisions: the pass, the decision and its rule, the evidence path it recorded along
<code>DEPENDS_ON</code>, and what it cites &mdash; the broken reference, the tombstone, the superseding entry or
the supporters. Set the id, then run the graph and the table.</p>
""", ("decision_subgraph", "why_archived"))

_PASS = Slide("pass", "One pass's outcome", """
<p>Everything one pass decided: counts by action and rule, then the pass as a graph (first 300 decisions).
A pass id is in the answer of <code>POST /v1/digest/passes</code>, in <code>cognition explain</code> and in a
partition's pass history (next slide).</p>
""", ("pass_outcome", "pass_graph"))

_HISTORY = Slide("history", "A partition's pass history", """
<p>The latest digest and GC passes of one partition, with their state and counts.</p>
""", ("recent_passes",))

_LINEAGE = Slide("lineage", "A memory's lineage", """
<p>Where a memory comes from and what came of it: its revisions, <code>DERIVED_FROM</code> both ways, and
<code>DEPENDS_ON</code> both ways (a tombstone at the end of a dependency is what breaks it).</p>
""", ("lineage",))

_GC = Slide("gc", "GC evictions and their RetentionScore", """
<p>What GC archived or removed in a partition. <code>capacity_eviction</code> goes by lowest RetentionScore:
<code>0.45&middot;(1&minus;e^(&minus;recalls/5)) + 0.30&middot;&frac12;^(days since access/7) +
0.10&middot;&frac12;^(age days/90) + 0.15&middot;trust</code>, the score shown as the pass ranked it.</p>
""", ("gc_evictions",))

_BELIEVED = Slide("believed", "What did this scope believe at T?", """
<p>Two clocks: <b>record time</b> (when the store learned and changed something: revisions, events) and <b>valid
time</b> (when a fact held in the world: <code>valid_from</code> to <code>valid_until</code>). Set
<code>known_at</code> to the moment of a decision and <code>as_of</code> to the moment it was about: the table is
every memory and knowledge page as the store held it then, and whether it held at <code>as_of</code>. A
supersession closes the older record's <code>valid_until</code> in a revision of its own, so before that revision
the older record still reads as open.</p>
""", ("believed_at",))

_QUARANTINE = Slide("quarantine", "Quarantine: what the detector holds, and why", """
<p>A save the injection detector is unsure of is stored <code>pending</code> with
<code>hold_reason: suspected_injection</code>: invisible to list, search, recall and context until an operator
approves or rejects it. Each held record says which layer held it (<code>hold_layer</code>: the multilingual
<code>encoder</code>, asked where the cheap n-gram model is unsure; or the <code>ngram</code> model, for an English
line under 40 characters it would refuse were it longer, or a Chinese text it would refuse where the encoder does not
agree; or a quarantining <code>pattern</code>, for a short line that tells a model not to refuse, asks for its
configuration or secrets, wants the answer in a cipher, frames the request as a fiction without rules or hides what
it asks from the user) and with what score (<code>hold_score</code>,
against the layer's hold threshold; 1.0 for a pattern).</p>
""", ("quarantine",))

SLIDES = (_HOW, _GRAPH, _WHY, _PASS, _HISTORY, _LINEAGE, _GC, _QUARANTINE, _BELIEVED)
_PLACEHOLDER = {"id": "artifact id", "pass_id": "pass id", "namespace": "namespace", "owner": "cognitive owner",
                "scope_id": "scope id", "known_at": "record time, ISO 8601 with a zone",
                "as_of": "valid time, ISO 8601 with a zone"}


def _param_block(name: str, value: str) -> str:
    v = html.escape(value)
    return (f'<p><input value-for="{name}" value="{v}" placeholder="{_PLACEHOLDER.get(name, name)}" '
            f'style="width: 100%"></p>\n'
            f"<pre class=\"code runnable\">:param {name} =&gt; '<span value-key=\"{name}\">{v}</span>'</pre>")


def _slide(base: str, slide: Slide, values: dict[str, str]) -> str:
    queries = [analyst_query(q) for q in slide.queries]
    params = dict.fromkeys(p for q in queries for p in q.params)
    parts = [f'<slide id="{slide.key}">', f"<h3>{html.escape(slide.title, quote=False)}</h3>",
             slide.prose.strip()]
    if params:
        parts.append("<p><b>Set</b> (type, then run the line):</p>")
        parts += [_param_block(p, values.get(p, "")) for p in params]
    for q in queries:
        parts.append(f"<p><b>Run</b> <code>cypher/analyst/{q.name}.cypher</code>: {html.escape(q.summary)}</p>")
        parts.append(f'<pre class="code runnable">{html.escape(q.text, quote=False)}</pre>')
    parts.append(f'<p><a data-exec="style {html.escape(base)}/style.grass">Apply the style</a> &middot; '
                 f'<a data-exec="guide {html.escape(base)}/auditor.html">The whole guide</a></p>')
    parts.append("</slide>")
    return "\n".join(parts)


def _page(base: str, title: str, slides: list[Slide], values: dict[str, str], *, intro: bool = True) -> str:
    first = 1 if intro else 0
    contents = "".join(f'<li><a exec-topic="guide {html.escape(base)}/auditor.html#slide-{i + first}">'
                       f"{html.escape(s.title, quote=False)}</a></li>" for i, s in enumerate(slides))
    start = (f"<slide id=\"start\">\n<h3>{html.escape(title, quote=False)}</h3>\n"
             "<p>Cleanup you can follow edge by edge: every digest or GC decision is a node in this graph, citing "
             "its evidence. Every query here is a file of <code>cypher/analyst/</code>; click one to edit it, or "
             "its play icon to run it.</p>\n"
             f"<ol>{contents}</ol>\n"
             f'<p><a data-exec="style {html.escape(base)}/style.grass">Apply the style</a> (done on connect)</p>\n'
             "</slide>\n") if intro else ""
    body = "\n".join(_slide(base, s, values) for s in slides)
    head = f"<head><meta charset=\"utf-8\"><title>{html.escape(title, quote=False)}</title></head>"
    return (f"<!DOCTYPE html>\n<html>{head}\n"
            f"<body>\n{start}{body}\n</body></html>\n")


def guide(base: str) -> str:
    """The whole guide; `base` is the URL it is served under (for its style and guide links)."""
    return _page(base, "Cognition: the auditor's guide", list(SLIDES), {})


def why_guide(base: str, artifact_id: str) -> str:
    """The guide opened on "why was this archived" for one artifact (its first slide), the id set."""
    if not ID.match(artifact_id):
        raise ValueError(f"not an artifact id: {artifact_id!r}")
    slides = [_WHY, _LINEAGE, _HOW, _GRAPH]
    return _page(base, f"Why was {artifact_id} archived?", slides, {"id": artifact_id}, intro=False)


def why_route() -> str:
    """The route of `why_guide` under the guide's base (the path `digest.explain.browser_link` names)."""
    return WHY_PATH.format(id="{artifact_id}")


def guide_base(settings: Settings) -> str:
    """The URL this service serves the guide under: `COGNITION_BROWSER_GUIDE_URL`, else derived from
    `COGNITION_HOST` / `COGNITION_PORT` (loopback written `localhost`), the same rule the managed Neo4j's
    `browser.post_connect_cmd` follows."""
    return neo4j_local.guide_url(settings.port, settings.host)


def browser_url(settings: Settings) -> str:
    """Neo4j Browser of the server this service uses: `COGNITION_BROWSER_URL`, else the managed instance's,
    else port 7474 on the Bolt host."""
    if settings.browser_url:
        return settings.browser_url
    inst = neo4j_local.instance_for(settings.neo4j_uri)
    if inst is not None:
        return inst.browser_url
    host = re.sub(r"^[a-z+]+://", "", settings.neo4j_uri or "bolt://127.0.0.1").split(":")[0].split("/")[0]
    return f"http://{host}:7474/browser/"


def link_for(settings: Settings, artifact_id: str) -> str:
    return browser_link(browser_url(settings), guide_base(settings), artifact_id)
