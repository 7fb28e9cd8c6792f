"""Reads of the store as it was: `known_at` (record time, docs/time.md). The records a scope held at that instant
are replayed in Neo4j (cypher/fragments/state_at.cypher: the revision current then, the status and flags its events
gave it by then); list, search and the context call then answer over them exactly as they answer over the store as
it is — the same filters, the same lexical ranking with the scope's statistics as they were then, the same arms in
the same order — in Python. A read of the past is never a recall (nothing is counted), reads the whole scope (an
audit's question, not a hot path), ranks lexically (vectors are of today's texts) and reads recall counts and
accessed_at as they are now (they are not versioned). Records deleted, removed or rejected since are erased: a load
names the tombstone, the other reads leave them out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from cognition.schemas.vocabulary import ARMS, DEFAULT_LIMITS, MAX_LIMIT, SURFACES
from digest.retention import retention_score
from graph import artifacts as repo
from graph.errors import Invalid, NotFound
from graph.model import Artifact, Family, Kind, native_props
from service.gates.provenance import eager_trusted_ok
from service.search import ranking, scope_index, temporal
from service.usecases import context as ctx
from service.usecases.runtime import Runtime
from service.usecases.timeview import Resolved, valid_at

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_SEARCHABLE = (Family.memory, Family.knowledge, Family.skill)


def _ns(t: datetime) -> int:
    d = t - _EPOCH
    return (d.days * 86_400 + d.seconds) * 1_000_000_000 + d.microseconds * 1000


async def records_at(rt: Runtime, scope_id: str, families: Sequence[Family], known_at: datetime) -> list[Artifact]:
    """Every record of `families` the scope held at `known_at`, as it was (oldest first)."""
    rec = await rt.graph.read(repo.scope_at, scope_id=scope_id, families=[f.value for f in families],
                              known_at=known_at)
    arts = [Artifact.from_node(native_props(r)) for r in rec["rows"]]
    return sorted(arts, key=lambda a: (a.created_at, a.id))


async def load_at(rt: Runtime, scope_id: str, id: str, families: Sequence[Family], known_at: datetime) -> Artifact:
    rec = await rt.graph.read(repo.load_at, scope_id=scope_id, id=id, families=[f.value for f in families],
                              known_at=known_at)
    if rec["artifact"] is not None:
        return Artifact.from_node(native_props(rec["artifact"]))
    if rec["tombstone"] is not None:
        gone = native_props(rec["tombstone"])
        if rec["erased"]:
            raise NotFound(f"{id} existed at {known_at.isoformat()} but was erased since (its content went with it)",
                           code="artifact_erased", details={"removed_at": gone["removed_at"].isoformat(),
                                                            "reason": gone.get("reason")})
        if gone["removed_at"] <= known_at:
            raise NotFound(f"{id} had been removed by {known_at.isoformat()}", code="artifact_removed")
    raise NotFound(f"no {families[0].value} {id} in this scope at {known_at.isoformat()}", code="not_found")


def _listed(a: Artifact, f: Any, at: Resolved) -> bool:
    occurred = a.occurred_at or a.created_at
    return (a.status.value == f.status and (f.kind is None or (a.kind is not None and a.kind.value == f.kind))
            and (f.tier is None or (a.tier is not None and a.tier.value == f.tier))
            and (f.tag is None or f.tag in a.tags)
            and (f.created_after is None or a.created_at >= f.created_after)
            and (f.created_before is None or a.created_at < f.created_before)
            and (f.occurred_after is None or occurred >= f.occurred_after)
            and (f.occurred_before is None or occurred < f.occurred_before)
            and (at.include_invalid or valid_at(a, at.as_of)))


async def list_at(rt: Runtime, scope_id: str, family: Family, f: Any, *, after: tuple[datetime, str] | None,
                  limit: int, at: Resolved) -> tuple[list[Artifact], bool]:
    """A list page over the records as they were at `at.known_at` (`f`: service.usecases.artifacts.ListFilter)."""
    assert at.known_at is not None
    occurred = f.ordered_by == "occurred"

    def key(a: Artifact) -> tuple[datetime, str]:
        return ((a.occurred_at or a.created_at) if occurred else a.created_at, a.id)

    rows = sorted((a for a in await records_at(rt, scope_id, [family], at.known_at) if _listed(a, f, at)), key=key)
    if after is not None:
        rows = [a for a in rows if key(a) > after]
    return rows[:limit], len(rows) > limit


def _copy_rows(arts: Sequence[Artifact]) -> list[dict[str, Any]]:
    return [{"id": a.id, "family": a.family.value, "kind": a.kind.value if a.kind else None, "title": a.title,
             "content": a.content, "created": _ns(a.created_at), "updated": _ns(a.updated_at),
             "occurred": _ns(a.occurred_at or a.created_at)} for a in arts]


def _retention(a: Artifact, now: datetime, params: ranking.RankingParams) -> float:
    return retention_score(recall_count=a.recall_count, accessed_at=a.accessed_at, created_at=a.created_at,
                           trust=a.trust, now=now, weights=params.weights)


def _ranked(rt: Runtime, pool: Sequence[Artifact], candidates: Sequence[Artifact], query: str, families: list[str],
            fetch: int, params: ranking.RankingParams, now: datetime,
            when: temporal.QueryTime | None = None) -> list[tuple[Artifact, float]]:
    """`candidates` (a subset of `pool`) ranked for `query` as the live search ranks them: BM25 with the statistics
    of `pool` (the searchable rows of the scope as it was, in any status) and neighbouring episodes, the top `fetch`
    of `families`, of which the candidates, fused by reciprocal rank with the retention boost
    (service/search/ranking.fuse)."""
    copy = scope_index.ScopeCopy.build(("known_at",), None, _copy_rows(pool), rt.indexes.analysis)
    ft, _ = copy.rank(query, None, families, fetch, scope_index.index_params(None, params), when)
    keep = {a.id: a for a in candidates}
    ft = [x for x in ft if x in keep]
    retention = {x: _retention(keep[x], now, params) for x in ft}
    return [(keep[x], score) for x, score in ranking.fuse(ft, [], retention, params)]


async def search_at(rt: Runtime, scope_id: str, families: Sequence[Family], *, query: str, kind: str | None,
                    tier: str | None, tag: str | None, include_archived: bool, limit: int,
                    params: ranking.RankingParams | None, at: Resolved,
                    occurred: tuple[datetime | None, datetime | None]) -> list[tuple[Artifact, float]]:
    """Explicit search over the records as they were at `at.known_at`: the same filters and ranking as the live
    search (lexical: vectors are of today's texts), nothing counted as a recall."""
    assert at.known_at is not None
    params = params or rt.ranking
    ranking.lucene_query(query, scope_id=scope_id, families=["memory"], statuses=["active"])  # the same refusal
    fams = [f for f in families if f in _SEARCHABLE]
    pool = await records_at(rt, scope_id, list(_SEARCHABLE), at.known_at)
    statuses = {"active", "archived"} if include_archived else {"active"}
    low, high = occurred

    def hit(a: Artifact) -> bool:
        when = a.occurred_at or a.created_at
        return (a.family in fams and a.status.value in statuses
                and (kind is None or (a.kind is not None and a.kind.value == kind))
                and (tier is None or (a.tier is not None and a.tier.value == tier)) and (tag is None or tag in a.tags)
                and (at.include_invalid or valid_at(a, at.as_of))
                and (low is None or when >= low) and (high is None or when < high))

    filtered = (kind is not None or tier is not None or tag is not None or low is not None or high is not None
                or at.explicit_now or at.as_of != at.clock)
    _, when = at.asked(query)
    found = _ranked(rt, pool, [a for a in pool if hit(a)], query, [f.value for f in fams],
                    params.fetch(limit, filtered=filtered), params, at.now, when)
    return found[:limit]


def _by(*keys: Any) -> Any:
    return lambda a: tuple(k(a) for k in keys)


def _desc_time(t: datetime | None) -> float:
    return -(t or _EPOCH).timestamp()


class _Desc:
    """A string that sorts in reverse (ids descending inside an ascending sort)."""

    __slots__ = ("s",)

    def __init__(self, s: str) -> None:
        self.s = s

    def __lt__(self, other: _Desc) -> bool:
        return self.s > other.s

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Desc) and self.s == other.s


async def context_at(rt: Runtime, scope_id: str, *, surface: str, query: str | None,
                     limits: Mapping[str, int] | None, params: ranking.RankingParams | None,
                     at: Resolved) -> ctx.Context:
    """The context call over the records as they were at `at.known_at`, valid at `at.as_of`: the arms of
    context/assemble_reference.cypher (the live call's oracle) — the same eligibility (RecallQualityOK, the eager
    arms' provenance rule), the same orders and limits — computed here. Nothing is counted as a recall."""
    assert at.known_at is not None
    params = params or rt.ranking
    if surface not in SURFACES:
        raise Invalid(f"unknown surface {surface!r}; surfaces are {', '.join(SURFACES)}",
                      code="unknown_surface", details={"field": "surface"})
    merged = {**DEFAULT_LIMITS, **(limits or {})}
    for arm, n in merged.items():
        if arm not in DEFAULT_LIMITS or not 0 <= n <= MAX_LIMIT:
            raise Invalid(f"limits: {arm!r} must be an arm name with a limit of 0–{MAX_LIMIT}",
                          code="invalid_limit", details={"field": f"limits.{arm}"})
    rows = await records_at(rt, scope_id, list(Family), at.known_at)
    if not rows:
        from graph import scopes as scopes_repo  # the scope itself must exist (and not be being deleted)

        if await rt.graph.read(scopes_repo.get, scope_id) is None:
            raise NotFound(f"no scope {scope_id}", code="scope_not_found")
    now = at.now

    def ok(a: Artifact) -> bool:
        return ctx.recall_quality_ok(a, at.as_of)

    def memories(kind: Kind) -> list[Artifact]:
        return [a for a in rows if a.family is Family.memory and a.kind is kind and ok(a)]

    def retained(arts: list[Artifact]) -> list[Artifact]:
        return sorted(arts, key=_by(lambda a: -_retention(a, now, params), lambda a: _desc_time(a.updated_at),
                                    lambda a: _Desc(a.id)))

    def trusted(kind: Kind) -> list[Artifact]:
        eligible = [a for a in memories(kind) if eager_trusted_ok(a.model_dump(mode="json"))]
        return sorted(eligible, key=_by(lambda a: -a.trust, lambda a: _desc_time(a.updated_at),
                                        lambda a: _Desc(a.id)))

    arms: dict[str, list[Artifact]] = {}
    want = SURFACES[surface]
    for arm in want:
        n = merged[arm]
        if arm == "constraints":
            got = trusted(Kind.constraint)
        elif arm == "instructions":
            got = trusted(Kind.instruction)
        elif arm == "environment":
            got = sorted(memories(Kind.environment), key=_by(lambda a: _desc_time(a.updated_at),
                                                             lambda a: _Desc(a.id)))
        elif arm == "preferences":
            got = retained(memories(Kind.preference))
        elif arm == "recent_episodes":
            episodes = [a for a in memories(Kind.episodic) if (a.occurred_at or a.created_at) <= at.as_of]
            got = sorted(episodes, key=_by(lambda a: _desc_time(a.occurred_at or a.created_at),
                                           lambda a: _Desc(a.id)))
        elif arm == "relevant_memories":
            text = (query or "").strip()
            if not text:
                got = []
            else:
                pool = [a for a in rows if a.family in _SEARCHABLE]
                eligible = [a for a in rows if a.family is Family.memory and ok(a)]
                _, when = at.asked(text)
                got = [a for a, _ in _ranked(rt, pool, eligible, text, [Family.memory.value],
                                             params.fetch(n), params, now, when)]
        elif arm == "knowledge":
            got = retained([a for a in rows if a.family is Family.knowledge and ok(a)])
        elif arm == "skills":
            got = retained([a for a in rows if a.family is Family.skill and ok(a)])
        else:  # profile: the kernels with something to say, then the role tier's memories other than episodes
            kernels = [a for fam in (Family.agent_kernel, Family.world_kernel) for a in rows
                       if a.family is fam and ok(a) and a.content.strip()]
            role = retained([a for a in rows if a.family is Family.memory and a.tier is not None
                             and a.tier.value == "role" and a.kind is not Kind.episodic and ok(a)])
            got = kernels + role
        arms[arm] = got[:n]
    assert set(arms) <= set(ARMS)
    return ctx.Context(arms, 0, at)
