"""The context endpoint's use case: automatic injection through three surfaces and nine named arms
(INV-MEM-50, docs/design.md), assembled in ONE Cypher query — `cypher/context/assemble.cypher` — so one call is
one round trip and one transaction (a consistent read: no arm sees a row another arm has already lost).

Surfaces and arms (the default limit in brackets; a request may set each arm's limit, 0–100):

- eager
  - `constraints` [20]: memories of kind `constraint` (any tier); trust ↓, updated_at ↓, id ↓.
  - `instructions` [20]: memories of kind `instruction`; trust ↓, updated_at ↓, id ↓.
  - `environment` [10]: memories of kind `environment`; updated_at ↓, id ↓.
  - `preferences` [10]: memories of kind `preference`; RetentionScore ↓, updated_at ↓, id ↓.
  - `recent_episodes` [5]: memories of kind `episodic` that occurred by `as_of`; occurred_at ↓, id ↓.
- lazy
  - `relevant_memories` [8]: memories of any kind matching `query`, in hybrid-rank order (service/search/ranking.py);
    empty without a query. The same ranking as explicit search, minus the rows RecallQualityOK refuses.
  - `knowledge` [5]: knowledge pages; RetentionScore ↓, updated_at ↓, id ↓.
  - `skills` [5]: skills; RetentionScore ↓, updated_at ↓, id ↓.
- cold_start
  - `profile` [10]: the agent kernel, then the world kernel (each only when not empty), then role-tier
    memories (the long-lived role memory) other than episodes; RetentionScore ↓, updated_at ↓, id ↓.

`surface="all"` returns all nine (the benchmark's view). A row may appear in more than one arm (a role-tier
preference is both a preference and part of the profile); it counts as one recall.

Every arm asks two questions: *visibility* — the row belongs to the caller's scope (`a.scope_id = $scope_id`;
the scope must exist and not be being deleted) — and *is this row still good*, answered by ONE predicate,
**RecallQualityOK**: status `active` (so not pending, archived or removed), not `stale`, not `conflicted`, and
not working state. Its Cypher lives in `cypher/context/recall_quality_ok.cypher` only, substituted into every
arm at load time (service/search/ranking.compose); `recall_quality_ok` below is its Python mirror, which the tests
hold to the same answers. Explicit search (service/usecases/artifacts.search) deliberately does not ask it.

The selected rows are locked and RecallQualityOK asked again under the lock, so a supersession committing
concurrently can never slip a row that is already conflicted into the answer; what is returned counts as a
recall (recall_count + 1, accessed_at = now) in the same transaction.

No arm reads all its rows (docs/context-and-ranking.md): the eager arms walk composite range
indexes in their order, the retention arms rank five index-ordered lists of `FIRST_CANDIDATES` rows and prove
the answer exact, or read them `CANDIDATES` long and prove it, or fall back to scoring every row of an arm of at
most `SCAN_MAX` rows (a larger arm answers the top of the long lists' union); the four retention arms share one
pipeline, written once, which keeps the query quick to plan. The query it replaced is
kept as the tests' oracle, `cypher/context/assemble_reference.cypher`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from neo4j import AsyncManagedTransaction

from cognition.schemas.vocabulary import ARMS, DEFAULT_LIMITS, MAX_LIMIT, SURFACES
from graph import recall
from graph.driver import Graph
from graph.errors import Invalid, NotFound
from graph.model import Artifact, Family, Status
from service import metrics
from service.search import embedding, ranking, scope_index, temporal
from service.search.ranking import lucene_query
from service.usecases.runtime import Runtime
from service.usecases.timeview import CURRENT, Resolved, TimeView, valid_at

# Surfaces, arms and their limits are part of the wire contract (cognition/schemas/vocabulary.py).
# Length of each index-ordered list a retention arm ranks (cypher/fragments/retention_top.cypher): at least every
# limit, and long enough that the top rows of a typical scope beat the bound of what the lists leave out (a
# list's last value must fall below the rows the arm returns; 200 does on the bench's mix). A short list costs
# only speed, never a different answer: the arm then scores every row.
CANDIDATES = 200
# The lists are read at this depth first, and at CANDIDATES only when the short lists prove nothing: most calls
# pay for FIRST_CANDIDATES rows a list (the proof holds once the rows the context calls keep recalling lead the
# recall-count and access lists), a few for both depths, and only where CANDIDATES proves nothing either does an
# arm score every row.
FIRST_CANDIDATES = 48
# Where neither depth proves anything (RetentionScore's terms pull apart: the most recalled rows are the least
# trusted, say), an arm of at most SCAN_MAX rows is scored whole; a larger one answers the top of the CANDIDATES-long
# lists' union (the best rows by each of the score's properties) instead of reading the whole arm.
SCAN_MAX = 2_000


def recall_quality_ok(artifact: Artifact | Mapping[str, Any], as_of: datetime) -> bool:
    """RecallQualityOK, the Python mirror of cypher/fragments/recall_quality_ok.cypher: active, not stale, not working
    state, valid at `as_of` (a conflicted record without a closed validity never). (Visibility — the caller's scope —
    is each arm's other question.)"""
    if isinstance(artifact, Artifact):
        return (artifact.status is Status.active and artifact.family is not Family.working_state
                and artifact.stale is False and not (artifact.conflicted and artifact.valid_until is None)
                and valid_at(artifact, as_of))
    return (artifact.get("status") == "active" and artifact.get("family") != "working_state"
            and artifact.get("stale") in (None, False)
            and not (artifact.get("conflicted") is True and artifact.get("valid_until") is None)
            and valid_at(dict(artifact), as_of))


@dataclass(frozen=True, slots=True)
class Context:
    arms: dict[str, list[Artifact]]
    recalled: int
    view: Resolved | None = None


assemble_tx = recall.assemble  # the unit of work (graph/recall.py); a module attribute so a harness can wrap it


async def assemble(rt: Runtime, scope_id: str, *, surface: str, query: str | None = None,
                   limits: Mapping[str, int] | None = None, params: ranking.RankingParams | None = None,
                   view: TimeView = CURRENT) -> Context:
    """The arms of `surface` for `scope_id`, in one query; their rows count as recalls. With `view.as_of` the arms
    hold what was valid then; with `view.known_at` they are assembled from the store as it was then
    (service/usecases/recordtime.py: a read of the past, never a recall)."""
    arms = list(SURFACES.get(surface, ()))
    at, _ = view.resolved(rt.clock()).asked(query if "relevant_memories" in arms else None)
    if at.known_at is not None:
        from service.usecases import recordtime  # late: it builds on this module's arms

        return await recordtime.context_at(rt, scope_id, surface=surface, query=query, limits=limits, params=params,
                                         at=at)

    def make(on: Any) -> Any:
        async def work(tx: Any) -> Any:
            return await assemble_tx(tx, **await query_params(rt, scope_id, surface=surface, query=query,
                                                              limits=limits, params=params,
                                                              on=tx if on is None else on,
                                                              as_of=at.as_of, now=at.now))
        return work

    # One auto-commit query, one round trip, when nothing needs reading first: the relevant memories are not
    # asked for, or ranked by the copy of the scope this process holds, whose version the query checks before it
    # selects anything (its guard, context/assemble.cypher). Where the process holds no copy, or the guard finds
    # the scope moved, the call is one transaction that reads the version, brings the copy up to date and ranks
    # with it (two round trips and the commit's). The guard's attempt writes nothing, so a recall counts once;
    # only a connection lost during the auto-commit, its outcome unknown, is answered again (a recall may then
    # count twice: a statistic, never a record).
    ranked = "relevant_memories" in arms and bool((query or "").strip()) and (params or rt.ranking).scope_index
    held = rt.indexes.held(scope_id, rt.embedder.name if rt.embedder is not None else None) if ranked else None
    rec = (await rt.graph.write_once(make(held), committed=None) if held is not None or not ranked else None)
    if rec is None or (rec["found"] and not rec["current"]):
        # The parameters (the scope index's version and ranking included) are made in this transaction.
        metrics.record_recall("context", "read_first" if rec is None else "moved")
        rec = await rt.graph.write(make(None))
    else:
        metrics.record_recall("context", "one_query")
    if rec is None or not rec["found"]:
        raise NotFound(f"no scope {scope_id}", code="scope_not_found")
    rows = {a["id"]: Artifact.from_node(a) for a in rec["rows"]}  # each row once; from_node makes them native
    got = {x["arm"]: [rows[i] for i in x["ids"]] for x in rec["arms"]}
    return Context({arm: got.get(arm, []) for arm in arms}, int(rec["recalled"]), at)


async def query_params(rt: Runtime, scope_id: str, *, surface: str, query: str | None = None,
                       limits: Mapping[str, int] | None = None, params: ranking.RankingParams | None = None,
                       on: Graph | AsyncManagedTransaction | scope_index.ScopeCopy | None = None,
                       as_of: datetime | None = None, now: datetime | None = None) -> dict[str, Any]:
    """The parameters of context/assemble.cypher for one call (checked; the query embedded when the runtime has an
    embedder). With `on` (the call's transaction, or a Graph) the relevant memories are ranked by the scope index;
    with a copy of the scope (ScopeIndexes.held) by that copy as it is, its version the query's guard (`q.held`);
    without either by Lucene (the oracle test, the bench's raw arms). Its oracle, context/assemble_reference.cypher,
    takes the same."""
    params = params or rt.ranking
    if surface not in SURFACES:
        raise Invalid(f"unknown surface {surface!r}; surfaces are {', '.join(SURFACES)}",
                      code="unknown_surface", details={"field": "surface"})
    arms = SURFACES[surface]
    merged = {**DEFAULT_LIMITS, **(limits or {})}
    for arm, n in merged.items():
        if arm not in DEFAULT_LIMITS or not 0 <= n <= MAX_LIMIT:
            raise Invalid(f"limits: {arm!r} must be an arm name with a limit of 0–{MAX_LIMIT}",
                          code="invalid_limit", details={"field": f"limits.{arm}"})
    text = (query or "").strip()
    wants_query = "relevant_memories" in arms and bool(text)
    model = rt.embedder
    lucene = lucene_query(text, scope_id=scope_id, families=[Family.memory.value],
                          statuses=[Status.active.value]) if wants_query else None
    qvec = await embedding.embed_query(model, text) if wants_query and model is not None else None
    limit = merged["relevant_memories"]
    # The same rankings as explicit search (service.usecases.artifacts.search_ranked).
    when = temporal.query_time(text, now or rt.clock()) if wants_query else None
    ft_ids, vec_ids = (await scope_index.rank(rt.indexes, on, scope_id, query=text, qvec=qvec, model=model,
                                              families=[Family.memory.value], fetch=params.fetch(limit),
                                              params=params, when=when if when is not None and when.active else None)
                       if on is not None and wants_query and params.scope_index else (None, None))
    hybrid = ranking.hybrid_params(lucene=lucene, qvec=qvec, model=model.name if model else None,
                                   scope_id=scope_id, families=[Family.memory.value],
                                   statuses=[Status.active.value], fetch=params.fetch(limit), now=rt.clock(),
                                   params=params, min_cosine=embedding.min_cosine(model), ft_ids=ft_ids,
                                   vec_ids=vec_ids, as_of=as_of,
                                   held=on.version if isinstance(on, scope_index.ScopeCopy) and ft_ids is not None
                                   else None)
    # `arms` as a map of all nine (not a list of the requested ones): one plan for every surface (see `q` in
    # ranking.hybrid_params)
    # and the limits of the arms not asked for are 0: Neo4j may read an arm's rows before it filters on `$arms`,
    # and a LIMIT 0 reads none
    return {**hybrid, "arms": {arm: arm in arms for arm in ARMS},
            "limits": {arm: n if arm in arms else 0 for arm, n in merged.items()},
            "cand_first": max(FIRST_CANDIDATES, *merged.values()), "cand": max(CANDIDATES, MAX_LIMIT),
            "scan_max": SCAN_MAX}
