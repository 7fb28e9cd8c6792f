"""Scope import: a verified `.cogx.jsonl` file (service/usecases/portability/format.py) becomes a new scope.

Order of checks, all before anything is written: the manifest (counts, format, SHA-256), the lines' shape and
references (every edge, revision and decision names something in the file), the write gates on every text
(threat scan, content quality: an export is input from outside), and with kept ids that none exists yet.
Then one write transaction creates the scope, its kernels and everything else in `UNWIND` batches of
`BATCH` rows and records one `import` event: the import is all or nothing, and nothing of it is visible
before it commits (a failure, a refused trigger check or a crash leaves the store as it was).

Ids: by default everything gets a fresh id (the same file imported twice is two scopes that share nothing);
with `keep_ids` the scope, its artifacts and tombstones keep theirs (refused with 409 `import_id_exists` if any
is taken), while events, passes and decisions — records that outlive a deleted scope in the audit trail — are
always re-identified. References inside properties (`artifact_id`, `pass_id`, `archived_by`, a decision's
`path`, an event's `detached`, …) follow the mapping. Imported artifacts carry `source: 'import'`.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from neo4j import AsyncManagedTransaction

from graph import portability as repo
from graph.errors import CognitionError, Conflict
from graph.model import KERNELS, LABELS, VALID_TIME, Family
from service.gates.pipeline import Candidate, GateRefusal, Thresholds, screen
from service.search import embedding
from service.usecases.portability.format import FORMAT, ImportRefused, Parsed, parse, revive
from service.usecases.runtime import Runtime

BATCH = 1000
EDGE_TYPES = frozenset({"SUPPORTS", "DEPENDS_ON", "DERIVED_FROM", "SUPERSEDES", "RELATES_TO"})
# Caller-written text: scanned by the gates, never treated as an id reference.
TEXT_KEYS = frozenset({"content", "title", "name", "when_to_use", "steps", "tags", "subject", "metadata", "reason",
                       "policy", "hold_reason", "hold_layer"})
Progress = Callable[[int, int], None]
_IDENT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$")  # as service/http/routes/scopes.py Ident


@dataclass(frozen=True)
class Target:
    namespace: str
    cognitive_owner: str | None = None  # None: the file's own (an export's scope owner, a mem0 user id)
    name: str | None = None
    keep_ids: bool = False


@dataclass
class Outcome:
    scope: dict[str, Any]
    counts: dict[str, int]
    id_map: dict[str, str] = field(default_factory=dict)


def new_id() -> str:
    return uuid.uuid4().hex


async def import_scope(rt: Runtime, chunks: Iterable[bytes], target: Target, *, actor: str,
                       progress: Progress | None = None) -> Outcome:
    graph = rt.graph
    parsed = parse(chunks)
    try:
        _check_shape(parsed)
        _screen(parsed, target, rt.thresholds)
        ids = _id_map(parsed, target.keep_ids)
        plan = _plan(parsed, target, ids, actor=actor, now=rt.clock())
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        # A file whose checksum is right can still be hand-made: a value of the wrong type is refused, not a 500.
        raise _bad(f"a line holds a value of the wrong type ({type(exc).__name__})") from exc
    if target.keep_ids:
        present = await graph.read(repo.ids_present, [ids[k] for k in _owned_ids(parsed)])
        if present:
            raise Conflict(f"--keep-ids: {len(present)} id(s) already exist in this store (e.g. {present[0]}); "
                           "import without keeping ids", code="import_id_exists")
    try:
        await graph.write(_write, plan, progress)
    except CognitionError as exc:
        if exc.code == "already_exists":
            raise Conflict(f"a scope named {plan.scope['name']!r} already exists for "
                           f"{target.namespace}/{plan.scope['cognitive_owner']}", code="scope_exists") from exc
        raise
    embedder = rt.embedder
    if embedder is not None:  # vectors are not exported: embed the new scope's rows after commit, like a save
        await embedding.reembed(graph, embedder, scope_id=str(plan.scope["id"]))
    counts = {k: len(v) for k, v in parsed.lines.items()}
    scope = {k: v for k, v in plan.scope.items() if k != "write_policy"}
    scope["agent_kernel_id"], scope["world_kernel_id"] = plan.kernels
    return Outcome(scope=scope, counts=counts, id_map=ids)


# ---- checks before anything is written --------------------------------------------------------------------

def _bad(message: str) -> ImportRefused:
    return ImportRefused(message, code="import_line_invalid")


def _check_shape(parsed: Parsed) -> None:
    lines = parsed.lines
    scope_id = parsed.scope.get("id")
    if not isinstance(scope_id, str) or not scope_id:
        raise _bad("the scope line has no id")
    families = [a.get("family") for a in lines["artifact"]]
    for art in lines["artifact"]:
        if not isinstance(art.get("id"), str) or art.get("family") not in Family.__members__:
            raise _bad(f"artifact {art.get('id')!r}: no id or an unknown family {art.get('family')!r}")
        if art.get("scope_id") != scope_id:
            raise _bad(f"artifact {art['id']} names another scope")
    for kernel in KERNELS:
        if families.count(kernel.value) != 1:
            raise _bad(f"an export holds exactly one {kernel.value} (found {families.count(kernel.value)})")
    arts = {a["id"] for a in lines["artifact"]}
    nodes = arts | {str(t.get("id")) for t in lines["tombstone"]}
    if len(nodes) != len(lines["artifact"]) + len(lines["tombstone"]):
        raise _bad("an id appears twice among artifacts and tombstones")
    for rev in lines["revision"]:
        if rev.get("artifact_id") not in arts or not isinstance(rev.get("revision"), int):
            raise _bad(f"a revision of {rev.get('artifact_id')!r}, which is not an artifact of this file")
    for edge in lines["edge"]:
        if edge.get("rel") not in EDGE_TYPES or edge.get("from") not in nodes or edge.get("to") not in nodes:
            raise _bad(f"edge {edge.get('rel')!r} {edge.get('from')!r} -> {edge.get('to')!r}: an unknown type or "
                       "an end that is not in this file")
    passes = {p.get("id") for p in lines["digest_pass"]}
    for dec in lines["decision"]:
        if dec.get("pass_id") not in passes or dec.get("about") not in nodes \
                or not set(dec.get("cites") or []) <= nodes:
            raise _bad(f"decision {dec.get('id')!r} names a pass or an artifact that is not in this file")


def _texts(obj: dict[str, Any], keys: Iterable[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for key in keys:
        value = obj.get(key)
        if isinstance(value, str):
            if key == "metadata":
                try:
                    out.update(_strings("metadata", json.loads(value)))
                    continue
                except ValueError:
                    pass
            out[key] = value
        elif isinstance(value, list):
            out.update({f"{key}[{i}]": v for i, v in enumerate(value) if isinstance(v, str)})
    return out


def _strings(prefix: str, value: Any) -> dict[str, str]:
    if isinstance(value, str):
        return {prefix: value}
    if isinstance(value, dict):
        return {k: v for key, item in value.items() for k, v in _strings(f"{prefix}.{key}", item).items()}
    if isinstance(value, list):
        return {k: v for i, item in enumerate(value) for k, v in _strings(f"{prefix}[{i}]", item).items()}
    return {}


def _screen(parsed: Parsed, target: Target, thresholds: Thresholds) -> None:
    """The write pipeline's gates over every text of the file; a refusal names the line (`index`, 1-based) and
    the field as `<line type>.<field>`. Nothing is written, and nothing of the refused text is kept."""
    entries: list[tuple[str, Candidate]] = []
    lines = parsed.lines
    tiers = {a["id"]: a.get("tier") for a in lines["artifact"]}
    family_of = {a["id"]: Family(a["family"]) for a in lines["artifact"]}
    scope_name = target.name or str(parsed.scope.get("name", ""))
    entries.append(("scope", Candidate(Family.memory, "working", "", {"name": scope_name})))
    for art in lines["artifact"]:
        entries.append(("artifact", Candidate(Family(art["family"]), art.get("tier"), str(art.get("content", "")),
                                              _texts(art, sorted(TEXT_KEYS)))))
    for rev in lines["revision"]:
        aid = rev["artifact_id"]
        entries.append(("revision", Candidate(family_of[aid], tiers.get(aid), str(rev.get("content", "")),
                                              _texts(rev, ["content"]))))
    for kind in ("tombstone", "event", "decision"):
        for obj in lines[kind]:
            # Not content: no quality gate (the working tier is exempt from it), but scanned all the same.
            entries.append((kind, Candidate(Family.memory, "working", "", _texts(obj, ["reason", "detail",
                                                                                   "policy"]))))
    if lines["write_policy"]:
        entries.append(("write_policy", Candidate(Family.memory, "working", "",
                                                  _strings("policy", lines["write_policy"][0].get("policy")))))
    for number, (kind, cand) in enumerate(entries, start=1):
        try:
            screen([cand], thresholds)
        except GateRefusal as refusal:
            refusal.details["field"] = f"{kind}.{refusal.field_name}"
            refusal.details["index"] = number
            refusal.message = f"import refused: {kind} {number}: {refusal.message}"
            raise


# ---- ids ----------------------------------------------------------------------------------------------------

def _owned_ids(parsed: Parsed) -> list[str]:
    """The ids kept by `keep_ids`: the scope's, its artifacts' and tombstones'."""
    return ([str(parsed.scope["id"])] + [a["id"] for a in parsed.lines["artifact"]]
            + [str(t["id"]) for t in parsed.lines["tombstone"]])


def _id_map(parsed: Parsed, keep_ids: bool) -> dict[str, str]:
    ids = {old: (old if keep_ids else new_id()) for old in _owned_ids(parsed)}
    for kind in ("digest_pass", "event"):
        ids.update({str(o["id"]): new_id() for o in parsed.lines[kind] if o.get("id") is not None})
    for dec in parsed.lines["decision"]:
        old = str(dec.get("id"))
        # Keep the pass's id formula (`pass:artifact:action`): a resumed pass finds its decisions by it.
        if old == f"{dec['pass_id']}:{dec['about']}:{dec.get('action')}":
            ids[old] = f"{ids[dec['pass_id']]}:{ids[dec['about']]}:{dec.get('action')}"
        else:
            ids[old] = new_id()
    return ids


def _remap(value: Any, ids: dict[str, str]) -> Any:
    if isinstance(value, str):
        return ids.get(value, value)
    if isinstance(value, list):
        return [_remap(v, ids) for v in value]
    return value


_SCALARS = (str, int, float, bool)


def _props(obj: dict[str, Any], ids: dict[str, str], *, drop: Iterable[str] = ()) -> dict[str, Any]:
    skip = {"type", *drop}
    props = revive({k: (v if k in TEXT_KEYS else _remap(v, ids)) for k, v in obj.items() if k not in skip})
    for key, value in props.items():
        # What a Neo4j property can hold: a scalar or a list of one scalar type (no maps, no nesting).
        ok = isinstance(value, _SCALARS) or value is None or isinstance(value, datetime) or (
            isinstance(value, list) and all(isinstance(v, _SCALARS) for v in value)
            and len({type(v) for v in value}) <= 1)
        if not ok:
            raise _bad(f"property {key!r} holds a value a graph property cannot hold")
    return props


# ---- the write ----------------------------------------------------------------------------------------------

@dataclass
class Plan:
    scope: dict[str, Any]
    kernels: tuple[str, str]
    steps: list[tuple[str, list[dict[str, Any]]]]  # (import query, rows) in order
    record: dict[str, Any]

    @property
    def total(self) -> int:
        return sum(len(rows) for _, rows in self.steps)


def _plan(parsed: Parsed, target: Target, ids: dict[str, str], *, actor: str, now: datetime) -> Plan:
    lines = parsed.lines
    old_scope = str(parsed.scope["id"])
    scope_id = ids[old_scope]
    owner = target.cognitive_owner or str(parsed.scope.get("cognitive_owner") or "")
    if not _IDENT.match(owner):
        raise ImportRefused(f"cognitive owner {owner!r}: name one (letters, digits, _ . : @ -)",
                            code="import_owner_required")
    scope = revive({"id": scope_id, "namespace": target.namespace, "cognitive_owner": owner,
                    "name": target.name or str(parsed.scope.get("name", "imported")),
                    "created_at": parsed.scope.get("created_at") or now.isoformat()})
    if lines["write_policy"]:
        scope["write_policy"] = json.dumps(lines["write_policy"][0].get("policy"), sort_keys=True)
    artifacts = []
    kernels = {}
    for art in lines["artifact"]:
        family = Family(art["family"])
        props = _props(art, ids)
        props["scope_id"], props["source"] = scope_id, "import"
        # A file from before records had times of their own: it happened when it was stored, and held from then.
        props.setdefault("occurred_at", props.get("created_at"))
        if family in VALID_TIME:
            props.setdefault("valid_from", props.get("occurred_at"))
        artifacts.append({"labels": ["Artifact", LABELS[family]], "props": props})
        if family in KERNELS:
            kernels[family] = props["id"]
    revisions, links = [], []
    for rev in lines["revision"]:
        aid = ids[rev["artifact_id"]]
        props = _props(rev, ids, drop=("previous",))
        props["artifact_id"], props["scope_id"] = aid, scope_id
        revisions.append({"artifact_id": aid, "props": props})
        if isinstance(rev.get("previous"), int):
            links.append({"artifact_id": aid, "revision": rev["revision"], "previous": rev["previous"]})
    tombstones = [{"props": {**_props(t, ids), "scope_id": scope_id}} for t in lines["tombstone"]]
    edges = [{"rel": e["rel"], "from": ids[e["from"]], "to": ids[e["to"]], "relation": e.get("relation")}
             for e in lines["edge"]]
    passes = [{"props": {**_props(p, ids), "namespace": target.namespace, "cognitive_owner": owner}}
              for p in lines["digest_pass"]]
    decisions = [{"pass_id": ids[d["pass_id"]], "about": ids[d["about"]],
                  "cites": [ids[c] for c in d.get("cites") or []],
                  "props": {**_props(d, ids, drop=("pass_id", "about", "cites")), "scope_id": scope_id}}
                 for d in lines["decision"]]
    events = [{"props": {**_props(e, ids), "scope_id": scope_id}} for e in lines["event"]]
    counts = {f"imported_{k}": len(v) for k, v in lines.items()}
    record = {"event_id": new_id(), "scope_id": scope_id, "at": now, "actor": actor,
              "sha256": str(parsed.manifest["sha256"]), "keep_ids": target.keep_ids, "format": FORMAT,
              "counts": {**counts, "from_scope_id": old_scope}}
    steps = [("artifacts", artifacts), ("revisions", revisions), ("revision_links", links),
             ("tombstones", tombstones), ("edges", edges), ("passes", passes), ("decisions", decisions),
             ("events", events)]
    return Plan(scope, (kernels[Family.agent_kernel], kernels[Family.world_kernel]), steps, record)


async def _write(tx: AsyncManagedTransaction, plan: Plan, progress: Progress | None) -> None:
    """The whole import in this one transaction (the driver may run it again on a transient error: it starts
    from nothing each time, so it is idempotent)."""
    done = 0
    await repo.create(tx, "scope_create", props=plan.scope)
    for name, rows in plan.steps:
        for start in range(0, len(rows), BATCH):
            batch = rows[start:start + BATCH]
            params: dict[str, Any] = {"rows": batch}
            if name == "edges":
                params["scope_id"] = plan.scope["id"]
            out = await repo.create(tx, name, **params)
            if int(out.get("created", 0)) != len(batch):
                raise ImportRefused(f"import {name}: {out.get('created', 0)} of {len(batch)} rows found what they "
                                    "name; nothing was written", code="import_inconsistent")
            done += len(batch)
            if progress is not None:
                progress(done, plan.total)
    await repo.create(tx, "record", **plan.record)
