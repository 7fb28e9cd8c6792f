"""The MCP server: nine short tools over the memory service, on the official `mcp` SDK (`MCPServer`).

Every tool call is checked like the HTTP route it stands for (service/http/deps.py `authorize`), in the same order:
1. the caller: a verified API key (HTTP: the request's bearer, verified by service/mcp/http.py; stdio: the key
   from the environment, re-verified on each call through the same cached `Authenticator`, so a revoke holds);
2. the scope: `scope_id` must name a scope in one of the key's namespaces, else `scope_not_found` — exactly as
   a scope of another namespace answers over HTTP. No tool takes a namespace or owner argument;
3. the role: the operation the tool is (service/usecases/access.py `Operation`: an auditor reads, never writes).
Then the same use case as the route (service/mcp/tools.py). Refusals come back as tool errors (`isError`)
whose structured content is the HTTP error body: `{"code", "message", ...details}`.
"""

# No `from __future__ import annotations`: the SDK reads these signatures (and the Context annotation) at run time.
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field, ValidationError

from cognition.schemas.records import Moment
from graph.errors import CognitionError, Unavailable
from graph.model import Family, Kind, Tier
from service.mcp import tools
from service.usecases.access import Authenticator, Operation, Principal, require, require_visible
from service.usecases.runtime import Runtime
from service.usecases.timeview import TimeView
from service.wire import refusal_body, status_of

_log = logging.getLogger("cognition.mcp")

INSTRUCTIONS = ("Typed memory for agents. Call list_scopes first; every other tool takes one of those scope ids. "
                "Saved text passes the same threat and quality gates as the HTTP API.")


@dataclass
class Binding:
    """The runtime the tools run against; set by whoever owns the lifecycle (the app's lifespan, or `cognition
    mcp`), None while the service starts or stops."""

    runtime: Runtime | None = None

    def ready(self) -> Runtime:
        if self.runtime is None:
            raise Unavailable("the memory service is starting or stopping; retry shortly")
        return self.runtime


# Who is calling, for one tool call: (the call's context, the verifier) → the verified principal.
PrincipalOf = Callable[[Context, Authenticator], Awaitable[Principal]]


def key_from_secret(secret: str) -> PrincipalOf:
    """stdio and in-process: one key for the connection, verified on every call (cache TTL: revokes hold)."""

    async def principal_of(_: Context, auth: Authenticator) -> Principal:
        return await auth.authenticate(secret)

    return principal_of


# ---- results ---------------------------------------------------------------------------------------------------

def ok(body: dict[str, Any]) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=json.dumps(body, ensure_ascii=False))],
                          structured_content=body)


def refused(body: dict[str, Any]) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=json.dumps(body, ensure_ascii=False))],
                          structured_content=body, is_error=True)


def error_body(exc: CognitionError) -> dict[str, Any]:
    """The HTTP error body (service/wire.py) plus the status it would have had there."""
    return {**refusal_body(exc), "status": status_of(exc)}


def validation_body(exc: ValidationError) -> dict[str, Any]:
    """As service/http/errors.py answers a 422: the first error's code (a validator may name one) and field. The
    rejected values are never echoed."""
    errors = exc.errors()
    first: dict[str, Any] = dict(errors[0]) if errors else {"loc": (), "msg": "invalid arguments"}
    ctx = first.get("ctx") or {}
    code = ctx.get("code") if isinstance(ctx.get("code"), str) else "validation_error"
    field = str(ctx["field"]) if isinstance(ctx.get("field"), str) else _field(first.get("loc", ()))
    return {"code": code, "message": f"{field}: {first.get('msg', 'invalid')}", "status": 422, "field": field,
            "errors": [{"field": _field(e.get("loc", ())), "message": str(e.get("msg")), "type": e.get("type")}
                       for e in errors[:20]]}


def _field(loc: Any) -> str:
    return ".".join(str(p) for p in loc) or "arguments"


class CognitionMCP(MCPServer[Any]):
    """`MCPServer` whose argument-validation failures carry the stable `validation_error` code too."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None,
                        ) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                return refused(validation_body(exc.__cause__))
            raise


# ---- the tools -------------------------------------------------------------------------------------------------

ScopeId = Annotated[str, Field(description="a scope id from list_scopes")]
ItemId = Annotated[str, Field(description="a record id")]
Cursor = Annotated[str | None, Field(description="next_cursor of the previous page")]
AsOf = Annotated[Moment | None, Field(description="valid time (ISO 8601 with a zone): what held at this instant; "
                                                  "default now")]
KnownAt = Annotated[Moment | None, Field(description="record time: answer from the store as it was at this "
                                                     "instant (an audit; nothing is counted as a recall)")]
Now = Annotated[Moment | None, Field(description="the question's own date: 'yesterday', 'last week', 'in May', "
                                                 "'去年' resolve against it")]

DESCRIPTIONS = {
    "save_memory": "Save a memory in a scope. It passes the write gates (threat scan, content quality, the scope's "
                   "approval policy: it may be pending, hold_reason / hold_layer saying why). occurred_at: when it "
                   "happened; supersedes: memories it replaces; a `key` already saved is replaced as a new revision.",
    "recall": "Recall what should be in context now: the scope's constraints, instructions, environment, "
              "preferences, recent episodes, memories relevant to `query`, knowledge, skills and profile. Only "
              "current, approved rows (valid now, or at as_of); each counts as a recall (not with known_at).",
    "search": "Search a scope's memories (or knowledge or skills) by text: what is valid now, or at as_of; "
              "superseded rows only with include_invalid; archived ones only with include_archived. Long texts are "
              "cut; use get for a whole record.",
    "get": "Get one memory, knowledge page or skill by id, whole, with its revision (needed by update_memory).",
    "update_memory": "Change a memory as a new revision. Pass the revision you read; a newer one answers "
                     "revision_mismatch with current_revision. Passes the same write gates as save_memory.",
    "forget": "Delete a record for good (a tombstone remains). Refused with has_dependents when active records "
              "depend on it, unless detach is true.",
    "history": "A record's revisions and events (save, update, approve, archive, ...), oldest first, paged.",
    "explain": "Why was this record archived, removed or kept? The digest's decisions about it, each citing its "
               "evidence (the broken reference's path, the superseding memory, the supporters).",
    "list_scopes": "The scopes this API key can use (its namespaces), paged, and the key's role. Start here.",
    "events": "What changed in a scope since `cursor`, oldest first: saves, updates, deletes, approvals, archives "
              "and more, with record ids and revisions (never content). Keep next_cursor to read on later.",
}


def build_server(binding: Binding, principal_of: PrincipalOf, *, name: str = "cognition") -> CognitionMCP:
    """The server, its tools bound to `binding` and to how a call's caller is found (`principal_of`)."""
    server = CognitionMCP(name, instructions=INSTRUCTIONS, version="0.1.0", log_level="WARNING")

    async def guarded(ctx: Context, operation: Operation, scope_id: str | None,
                      work: Callable[[Runtime, Principal], Awaitable[dict[str, Any]]]) -> CallToolResult:
        try:
            rt = binding.ready()
            principal = await principal_of(ctx, rt.auth)
            namespace = None
            if scope_id is not None:
                namespace = await require_visible(rt.auth, principal, "scope_id", scope_id)
            require(principal, operation)
            rt.limiter.take(principal.key_id, namespace, operation)  # MCP tool calls count like HTTP requests
            return ok(await work(rt, principal))
        except CognitionError as exc:
            return refused(error_body(exc))
        except ValidationError as exc:
            return refused(validation_body(exc))
        except Exception as exc:  # a bug, not a refusal: logged with its traceback, answered without detail
            _log.error("unhandled %s in an MCP tool", type(exc).__name__, exc_info=exc)
            return refused({"code": "internal_error", "message": "internal error", "status": 500})

    def tool(name: str, *, read_only: bool, destructive: bool = False, idempotent: bool = False,
             ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        return server.tool(name=name, description=DESCRIPTIONS[name], annotations=ToolAnnotations(
            read_only_hint=read_only, destructive_hint=destructive, idempotent_hint=idempotent,
            open_world_hint=False))

    @tool("save_memory", read_only=False)
    async def save_memory(ctx: Context, scope_id: ScopeId,
                          content: Annotated[str, Field(description="what to remember")],
                          kind: Kind = Kind.semantic, tier: Tier = Tier.agent,
                          tags: list[str] | None = None, subject: str | None = None,
                          trust: Annotated[float | None, Field(description="0..1")] = None,
                          idempotency_key: Annotated[str | None, Field(
                              description="a retried save with the same key writes once")] = None,
                          occurred_at: Annotated[Moment | None, Field(
                              description="when it happened (ISO 8601 with a zone); default now")] = None,
                          supersedes: Annotated[list[str] | None, Field(
                              description="ids of memories this one replaces")] = None,
                          key: Annotated[str | None, Field(
                              description="your name for this memory: saving with a key the scope already has "
                                          "replaces that memory as a new revision (one memory per key)")] = None,
                          ) -> CallToolResult:
        body: dict[str, Any] = {"content": content, "kind": kind, "tier": tier, "tags": tags or []}
        for name, value in (("subject", subject), ("trust", trust), ("occurred_at", occurred_at),
                            ("supersedes", supersedes)):
            if value is not None:
                body[name] = value
        return await guarded(ctx, Operation.write, scope_id,
                             lambda rt, p: tools.save_memory(rt, p, scope_id, body, idempotency_key, key))

    @tool("recall", read_only=False)  # not read-only: what it returns counts as recalled (recall_count, accessed_at)
    async def recall(ctx: Context, scope_id: ScopeId,
                     query: Annotated[str | None, Field(description="what the turn is about")] = None,
                     surface: Literal["eager", "lazy", "cold_start", "all"] = "all",
                     limit_per_arm: Annotated[int, Field(description=f"1..{tools.MAX_PER_ARM}")] = 5,
                     as_of: AsOf = None, known_at: KnownAt = None, now: Now = None,
                     ) -> CallToolResult:
        view = TimeView(as_of=as_of, known_at=known_at, now=now)
        return await guarded(ctx, Operation.read, scope_id,
                             lambda rt, _: tools.recall(rt, scope_id, surface=surface, query=query,
                                                       limit_per_arm=limit_per_arm, view=view))

    @tool("search", read_only=False)  # hits count as recalls, as over HTTP
    async def search(ctx: Context, scope_id: ScopeId, query: str,
                     family: Literal["memory", "knowledge", "skill"] = "memory",
                     kind: Kind | None = None, tier: Tier | None = None, tag: str | None = None,
                     include_archived: bool = False,
                     limit: Annotated[int, Field(description=f"1..{tools.MAX_SEARCH}")] = 10,
                     as_of: AsOf = None, known_at: KnownAt = None, now: Now = None,
                     include_invalid: Annotated[bool, Field(description="also superseded or expired records")] = False,
                     occurred_after: Moment | None = None, occurred_before: Moment | None = None) -> CallToolResult:
        view = TimeView(as_of=as_of, known_at=known_at, now=now, include_invalid=include_invalid)
        return await guarded(ctx, Operation.read, scope_id,
                             lambda rt, _: tools.search(rt, scope_id, query=query, family=Family(family),
                                                       kind=kind.value if kind else None,
                                                       tier=tier.value if tier else None, tag=tag,
                                                       include_archived=include_archived, limit=limit, view=view,
                                                       occurred_after=occurred_after,
                                                       occurred_before=occurred_before))

    @tool("get", read_only=False)  # a load is a recall (recall_count + 1), as over HTTP
    async def get(ctx: Context, scope_id: ScopeId, id: ItemId, as_of: AsOf = None,
                  known_at: KnownAt = None) -> CallToolResult:
        view = TimeView(as_of=as_of, known_at=known_at)
        return await guarded(ctx, Operation.read, scope_id, lambda rt, _: tools.get(rt, scope_id, id, view))

    @tool("update_memory", read_only=False)
    async def update_memory(ctx: Context, scope_id: ScopeId, id: ItemId,
                            revision: Annotated[int, Field(description="the revision you read (get)")],
                            content: str | None = None, tags: list[str] | None = None,
                            subject: str | None = None, trust: float | None = None,
                            valid_until: Annotated[Moment | None, Field(
                                description="when it stopped holding")] = None,
                            supersedes: list[str] | None = None) -> CallToolResult:
        changes = {k: v for k, v in {"content": content, "tags": tags, "subject": subject, "trust": trust,
                                     "valid_until": valid_until, "supersedes": supersedes}.items()
                   if v is not None}
        return await guarded(ctx, Operation.write, scope_id,
                             lambda rt, p: tools.update_memory(rt, p, scope_id, id, revision, changes))

    @tool("forget", read_only=False, destructive=True, idempotent=True)
    async def forget(ctx: Context, scope_id: ScopeId, id: ItemId,
                     detach: Annotated[bool, Field(description="leave dependents pointing at the tombstone")] = False,
                     reason: str | None = None) -> CallToolResult:
        return await guarded(ctx, Operation.write, scope_id,
                             lambda rt, p: tools.forget(rt, p, scope_id, id, detach=detach, reason=reason))

    @tool("history", read_only=True)
    async def history(ctx: Context, scope_id: ScopeId, id: ItemId, cursor: Cursor = None,
                      limit: Annotated[int, Field(description=f"1..{tools.MAX_HISTORY}")] = 20,
                      known_at: KnownAt = None) -> CallToolResult:
        view = TimeView(known_at=known_at)
        return await guarded(ctx, Operation.read, scope_id,
                             lambda rt, _: tools.history(rt, scope_id, id, cursor=cursor, limit=limit, view=view))

    @tool("explain", read_only=True)
    async def explain(ctx: Context, scope_id: ScopeId, id: ItemId) -> CallToolResult:
        return await guarded(ctx, Operation.read, scope_id, lambda rt, _: tools.explain(rt, scope_id, id))

    @tool("list_scopes", read_only=True)
    async def list_scopes(ctx: Context, cursor: Cursor = None,
                          limit: Annotated[int, Field(description=f"1..{tools.MAX_SCOPES}")] = 50) -> CallToolResult:
        return await guarded(ctx, Operation.read, None,
                             lambda rt, p: tools.list_scopes(rt, p, cursor=cursor, limit=limit))

    @tool("events", read_only=True)
    async def events(ctx: Context, scope_id: ScopeId, cursor: Cursor = None,
                     limit: Annotated[int, Field(description=f"1..{tools.MAX_EVENTS}")] = 50) -> CallToolResult:
        return await guarded(ctx, Operation.read, scope_id,
                             lambda rt, _: tools.events(rt, scope_id, cursor=cursor, limit=limit))

    return server
