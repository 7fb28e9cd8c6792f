"""Routes under `/v1/scopes/{scope_id}/…`: memories, knowledge, skills, kernels, working state, edges."""

# No `from __future__ import annotations` here: the route factory annotates with runtime classes.
from typing import Annotated, Any, NamedTuple

from fastapi import APIRouter, Body, Header, Path, Query, Request, Response
from fastapi.routing import APIRoute
from pydantic import TypeAdapter

from cognition.schemas.records import (
    ArtifactPublic,
    Cleared,
    Decision,
    Deleted,
    EdgeCreate,
    EdgePublic,
    History,
    Instant,
    Items,
    KernelUpdate,
    KnowledgeCreate,
    KnowledgeUpdate,
    MemoryBatch,
    MemoryCreate,
    MemoryUpdate,
    Moment,
    Page,
    SearchHit,
    SearchRequest,
    SearchResults,
    SkillCreate,
    SkillUpdate,
    WorkingStateCreate,
    WorkingStateUpdate,
)
from graph.model import Artifact, EdgeType, Family, Kind, Tier
from service.http import browser_guide
from service.http.deps import ActorDep, PrincipalDep, RuntimeDep
from service.http.errors import error_responses
from service.usecases import approvals
from service.usecases import artifacts as use
from service.usecases.access import Principal
from service.usecases.drafts import change_of, draft_of
from service.usecases.runtime import Runtime
from service.usecases.timeview import TimeView
from service.wire import etag, if_match_revision, list_cursor, list_position, public, view_header

ScopeId = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9-]+$")]
ItemId = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9-]+$")]
IfMatch = Annotated[str | None, Header(description="the ETag of the revision being updated")]
IdempotencyKey = Annotated[str | None, Header(min_length=1, max_length=200,
                                              description="a retried save with the same key writes once")]
AsOf = Annotated[Moment | None, Query(description="valid time: what held in the world at this instant (default "
                                                  "now)")]
KnownAt = Annotated[Moment | None, Query(description="record time: the store as it was at this instant (revisions, "
                                                     "statuses and deletions replayed); never a recall")]

_hit: TypeAdapter[Any] = TypeAdapter(SearchHit)


def _hit_of(art: Artifact, score: float) -> Any:
    data = public(art).model_dump()
    data["score"] = score
    return _hit.validate_python(data)


class SingleSave(NamedTuple):
    """A family route's single save, as the direct save (service/http/direct.py) serves it."""

    family: Family
    model: type[Any]  # the body's model
    route: APIRoute  # its template names the request in logs and metrics, and decides the role check


SINGLE_SAVES: dict[str, SingleSave] = {}  # by the family's path segment ("memories", "knowledge", …)


async def save_single(rt: Runtime, scope_id: str, body: Any, principal: Principal, *,
                      idempotency_key: str | None = None) -> tuple[Any, dict[str, str]]:
    """A single save's answer: (the record as the API shows it, the response headers). The family routes' save and
    the direct save both answer through here."""
    result = await use.save(rt, scope_id, [draft_of(body)], actor=principal.key_id,
                            idempotency_key=idempotency_key, role=principal.role)
    art = result.items[0]
    headers = {"ETag": etag(art.revision)}
    if result.replayed:
        headers["Idempotent-Replayed"] = "true"
    return public(art), headers


def _with_etag(response: Response, art: Artifact) -> None:
    response.headers["ETag"] = etag(art.revision)


def family_router(family: Family, path: str, create: type[Any], update: type[Any], *, searchable: bool,
                  approvable: bool, batch: type[Any] | None = None) -> APIRouter:
    """The same operations for memories, knowledge pages, skills and working state."""
    router = APIRouter(prefix="/v1/scopes/{scope_id}/" + path, tags=[path])
    fams = [family]
    name = family.value

    @router.post("", status_code=201, response_model=ArtifactPublic,
                 responses=error_responses(403, 404, 409, 422, 503), name=f"save_{name}")
    async def save_one(scope_id: ScopeId, body: Annotated[create, Body()], response: Response,  # type: ignore[valid-type]
                       rt: RuntimeDep, principal: PrincipalDep, idempotency_key: IdempotencyKey = None) -> Any:
        """Save one record through the write pipeline. Answers 201 with the record and its ETag."""
        record, headers = await save_single(rt, scope_id, body, principal, idempotency_key=idempotency_key)
        response.headers.update(headers)
        return record

    SINGLE_SAVES[path] = SingleSave(family, create, router.routes[-1])  # type: ignore[arg-type]

    if batch is not None:
        @router.post("/batch", status_code=201, response_model=Items,
                     responses=error_responses(403, 404, 413, 422, 503), name=f"save_{name}_batch")
        async def save_batch(scope_id: ScopeId, body: Annotated[batch, Body()], rt: RuntimeDep,  # type: ignore[valid-type]
                             actor: ActorDep, principal: PrincipalDep, response: Response,
                             idempotency_key: IdempotencyKey = None) -> Any:
            """Save up to 1000 records in one transaction (UNWIND). One refusal refuses the whole batch."""
            drafts = [draft_of(item) for item in body.items]  # type: ignore[attr-defined]
            result = await use.save(rt, scope_id, drafts, actor=actor, idempotency_key=idempotency_key,
                                    role=principal.role)
            if result.replayed:
                response.headers["Idempotent-Replayed"] = "true"
            return {"items": [public(a) for a in result.items]}

    @router.get("", response_model=Page, responses=error_responses(422, 503), name=f"list_{name}")
    async def list_items(scope_id: ScopeId, rt: RuntimeDep,
                         kind: Kind | None = None, tier: Tier | None = None,
                         status: Annotated[str, Query(pattern="^(pending|active|archived)$")] = "active",
                         tag: Annotated[str | None, Query(max_length=64)] = None,
                         created_after: Instant | None = None, created_before: Instant | None = None,
                         occurred_after: Moment | None = None, occurred_before: Moment | None = None,
                         order: Annotated[str | None, Query(
                             pattern="^(created|occurred)$",
                             description="created (created_at, id) or occurred (occurred_at, id); default created, "
                                         "or occurred when an occurred_at bound is given")] = None,
                         as_of: AsOf = None, known_at: KnownAt = None,
                         include_invalid: Annotated[bool, Query(
                             description="also records not valid at as_of")] = False,
                         cursor: Annotated[str | None, Query(max_length=500)] = None,
                         limit: Annotated[int, Query(ge=1, le=500)] = 50) -> Any:
        """List under typed filters in a stable order. Current truth by default (records valid now); `as_of`,
        `known_at` and `include_invalid` choose another view of time (the answer's `view` says which). Not a
        recall."""
        view = TimeView(as_of=as_of, known_at=known_at, include_invalid=include_invalid)
        items, more = await use.list_page(rt, scope_id, family, status=status,
                                          kind=kind.value if kind else None, tier=tier.value if tier else None,
                                          tag=tag, created_after=created_after, created_before=created_before,
                                          occurred_after=occurred_after, occurred_before=occurred_before,
                                          order=order, view=view,
                                          after=list_position(cursor) if cursor else None, limit=limit)
        by_occurred = use.ListFilter(occurred_after=occurred_after, occurred_before=occurred_before,
                                     order=order).ordered_by == "occurred"
        last = items[-1] if items else None
        nxt = (list_cursor((last.occurred_at or last.created_at) if by_occurred else last.created_at, last.id)
               if more and last is not None else None)
        return {"items": [public(a) for a in items], "next_cursor": nxt,
                "view": view.resolved(rt.clock()).wire()}

    if searchable:
        @router.post("/search", response_model=SearchResults, responses=error_responses(422, 503),
                     name=f"search_{name}")
        async def search(scope_id: ScopeId, body: SearchRequest, rt: RuntimeDep) -> Any:
            """Explicit search (full-text, Chinese and English). Current truth by default: records valid now
            (`as_of`, `known_at`, `include_invalid` and `now` choose another view of time; `occurred_after` /
            `occurred_before` bound when things happened). Stale rows come back flagged; archived only with
            include_archived; pending rows and working state never. Hits count as recalls (not at known_at)."""
            view = TimeView(as_of=body.as_of, known_at=body.known_at, include_invalid=body.include_invalid,
                            now=body.now)
            hits, at = await use.search_answer(rt, scope_id, fams, query=body.query,
                                               kind=body.kind.value if body.kind else None,
                                               tier=body.tier.value if body.tier else None, tag=body.tag,
                                               include_archived=body.include_archived, limit=body.limit, view=view,
                                               occurred_after=body.occurred_after,
                                               occurred_before=body.occurred_before)
            return {"items": [_hit_of(a, s) for a, s in hits], "view": at.wire()}

    @router.get("/{item_id}", response_model=ArtifactPublic, responses=error_responses(404, 503),
                name=f"load_{name}")
    async def load(scope_id: ScopeId, item_id: ItemId, response: Response, rt: RuntimeDep,
                   as_of: AsOf = None, known_at: KnownAt = None) -> Any:
        """Load by id (a recall: recall_count + 1, accessed_at = now; the ETag does not change). With `known_at`,
        the record as the store held it then (not a recall); with `as_of`, 404 `not_valid_at` unless it was
        valid then. The `Cognition-View` header says which view answered."""
        view = TimeView(as_of=as_of, known_at=known_at)
        art = await use.load(rt, scope_id, item_id, fams, view)
        _with_etag(response, art)
        response.headers["Cognition-View"] = view_header(view, view.resolved(rt.clock()))
        return public(art)

    @router.patch("/{item_id}", response_model=ArtifactPublic,
                  responses=error_responses(403, 404, 412, 422, 428, 503), name=f"update_{name}")
    async def patch(scope_id: ScopeId, item_id: ItemId, body: Annotated[update, Body()], response: Response,  # type: ignore[valid-type]
                    rt: RuntimeDep, actor: ActorDep, if_match: IfMatch = None) -> Any:
        """Update as a new revision. Needs If-Match (412 when the record moved on since)."""
        art = await use.update(rt, scope_id, item_id, fams, change_of(body, if_match_revision(if_match)),
                               actor=actor)
        _with_etag(response, art)
        return public(art)

    @router.delete("/{item_id}", response_model=Deleted, responses=error_responses(404, 409, 503),
                   name=f"delete_{name}")
    async def delete(scope_id: ScopeId, item_id: ItemId, rt: RuntimeDep, actor: ActorDep,
                     detach: bool = False, reason: Annotated[str | None, Query(max_length=500)] = None) -> Any:
        """Explicit, destructive delete. 409 `has_dependents` lists active dependents unless detach=true,
        which leaves them pointing at the tombstone."""
        detached = await use.delete(rt, scope_id, item_id, fams, detach=detach, reason=reason, actor=actor)
        return {"id": item_id, "detached": detached}

    if approvable:
        @router.post("/{item_id}/approve", response_model=ArtifactPublic, responses=error_responses(404, 409, 503),
                     name=f"approve_{name}")
        async def approve(scope_id: ScopeId, item_id: ItemId, rt: RuntimeDep, actor: ActorDep,
                          body: Decision | None = None) -> Any:
            """Approve a pending record (an event); it becomes active and visible. On an active record whose
            source is tool, web or import, approval lets it reach the eager constraints / instructions arms."""
            return public(await approvals.approve(rt, scope_id, item_id, fams, actor=actor,
                                            reason=body.reason if body else None))

        @router.post("/{item_id}/reject", status_code=204, responses=error_responses(404, 409, 503),
                     name=f"reject_{name}")
        async def reject(scope_id: ScopeId, item_id: ItemId, rt: RuntimeDep, actor: ActorDep,
                         body: Decision | None = None) -> Response:
            """Reject a pending record (an event): its content is deleted, a tombstone remains."""
            await approvals.reject(rt, scope_id, item_id, fams, actor=actor, reason=body.reason if body else None)
            return Response(status_code=204)

        # the advisory families: archived by digest / GC, brought back by restore
        @router.post("/{item_id}/restore", response_model=ArtifactPublic, responses=error_responses(404, 409, 503),
                     name=f"restore_{name}")
        async def restore(scope_id: ScopeId, item_id: ItemId, rt: RuntimeDep, actor: ActorDep,
                          body: Decision | None = None) -> Any:
            """Restore an archived record to active (an event)."""
            return public(await use.restore(rt, scope_id, item_id, fams, actor=actor,
                                            reason=body.reason if body else None))

    @router.get("/{item_id}/history", response_model=History, responses=error_responses(404, 503),
                name=f"history_{name}")
    async def history(scope_id: ScopeId, item_id: ItemId, rt: RuntimeDep, as_of: AsOf = None,
                      known_at: KnownAt = None) -> Any:
        """Revisions and events, oldest first; each revision with the state it recorded. With `known_at`, those the
        store held then; with `as_of`, only the revisions that were valid then."""
        view = TimeView(as_of=as_of, known_at=known_at)
        return {"items": await use.history(rt, scope_id, item_id, fams, view),
                "view": view.resolved(rt.clock()).wire()}

    @router.get("/{item_id}/views/{view}", responses=error_responses(404, 503), name=f"view_{name}")
    async def view(scope_id: ScopeId, item_id: ItemId,
                   view: Annotated[str, Path(pattern="^(support|lineage|invalidation|cleanup)$")],
                   rt: RuntimeDep, request: Request) -> dict[str, Any]:
        """Service-derived metadata views: support, lineage, invalidation, cleanup (read-only). `cleanup`
        carries `browser_link`: Neo4j Browser opened on the artifact's decision graph."""
        out = await use.view(rt, scope_id, item_id, fams, view)
        if view == "cleanup":
            out["browser_link"] = browser_guide.link_for(request.app.state.settings, item_id)
        return {"id": item_id, "view": view, **out}

    return router


memories = family_router(Family.memory, "memories", MemoryCreate, MemoryUpdate, searchable=True,
                         approvable=True, batch=MemoryBatch)
knowledge = family_router(Family.knowledge, "knowledge", KnowledgeCreate, KnowledgeUpdate, searchable=True,
                          approvable=True)
skills = family_router(Family.skill, "skills", SkillCreate, SkillUpdate, searchable=True, approvable=True)
working_state = family_router(Family.working_state, "working-state", WorkingStateCreate, WorkingStateUpdate,
                              searchable=False, approvable=False)


@working_state.delete("", response_model=Cleared, responses=error_responses(404, 503), name="clear_working_state")
async def clear_working_state(scope_id: ScopeId, rt: RuntimeDep, actor: ActorDep) -> Any:
    """Clear the scope's working state (an event)."""
    return {"cleared": await use.clear_working_state(rt, scope_id, actor=actor)}


kernels = APIRouter(prefix="/v1/scopes/{scope_id}/kernels", tags=["kernels"])
KernelName = Annotated[str, Path(pattern="^(agent|world)$")]


def _kernel_family(which: str) -> Family:
    return Family.agent_kernel if which == "agent" else Family.world_kernel


@kernels.get("/{which}", response_model=ArtifactPublic, responses=error_responses(404, 503))
async def get_kernel(scope_id: ScopeId, which: KernelName, response: Response, rt: RuntimeDep) -> Any:
    art = await use.get_kernel(rt, scope_id, _kernel_family(which))
    _with_etag(response, art)
    return public(art)


@kernels.put("/{which}", response_model=ArtifactPublic, responses=error_responses(404, 412, 422, 428, 503))
async def put_kernel(scope_id: ScopeId, which: KernelName, body: KernelUpdate, response: Response,
                     rt: RuntimeDep, actor: ActorDep, if_match: IfMatch = None) -> Any:
    """Replace the kernel document as a new revision (If-Match required)."""
    art = await use.update_kernel(rt, scope_id, _kernel_family(which), change_of(body, if_match_revision(if_match)),
                                  actor=actor)
    _with_etag(response, art)
    return public(art)


@kernels.get("/{which}/history", response_model=History, responses=error_responses(404, 503))
async def kernel_history(scope_id: ScopeId, which: KernelName, rt: RuntimeDep) -> Any:
    fam = _kernel_family(which)
    return {"items": await use.history(rt, scope_id, await use.kernel_id(rt, scope_id, fam), [fam])}


@kernels.delete("/{which}", responses=error_responses(404, 409))
async def delete_kernel(scope_id: ScopeId, which: KernelName, rt: RuntimeDep, actor: ActorDep) -> Any:
    """Always refused: kernels go only with their scope (409 `kernel_not_deletable`)."""
    fam = _kernel_family(which)
    await use.delete(rt, scope_id, await use.kernel_id(rt, scope_id, fam), [fam], detach=False, reason=None,
                     actor=actor)


edges = APIRouter(prefix="/v1/scopes/{scope_id}/edges", tags=["edges"])


@edges.post("", status_code=201, response_model=EdgePublic, responses=error_responses(404, 409, 422, 503))
async def create_edge(scope_id: ScopeId, body: EdgeCreate, rt: RuntimeDep) -> Any:
    """Create SUPPORTS | DEPENDS_ON | DERIVED_FROM | RELATES_TO {relation} between two artifacts of this scope.
    An id from another scope creates nothing (404)."""
    return await use.create_edge(rt, scope_id, type=body.type, from_id=body.from_id, to_id=body.to_id,
                                 relation=body.relation)


@edges.delete("", status_code=204, responses=error_responses(404, 422, 503))
async def delete_edge(scope_id: ScopeId, rt: RuntimeDep, type: EdgeType,
                      from_id: Annotated[str, Query(max_length=64)], to_id: Annotated[str, Query(max_length=64)],
                      relation: Annotated[str | None, Query(max_length=64)] = None) -> Response:
    await use.delete_edge(rt, scope_id, type=type, from_id=from_id, to_id=to_id, relation=relation)
    return Response(status_code=204)


ROUTERS = (memories, knowledge, skills, working_state, kernels, edges)
