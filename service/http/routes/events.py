"""`/v1/events`: the event feed of a namespace, paged by cursor or followed as Server-Sent Events."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import StreamingResponse

from cognition.schemas.events import EventPage, EventPublic
from cognition.schemas.scopes import IDENT_PATTERN
from service.http.deps import RuntimeDep
from service.http.errors import error_responses
from service.usecases import events as use
from service.usecases.runtime import Runtime
from service.wire import event_cursor, event_position

router = APIRouter(prefix="/v1/events", tags=["events"])

Namespace = Annotated[str, Query(min_length=1, max_length=128, pattern=IDENT_PATTERN,
                                 description="the namespace whose feed to read (a key sees only those it holds)")]
After = Annotated[str | None, Query(max_length=500, description="a cursor: the events after it (default: from the "
                                                                 "first)")]
STREAM_POLL_S = 0.25  # how often a quiet stream asks for new events
STREAM_PING_S = 15.0  # a comment line this often keeps proxies from closing a quiet stream


def public(namespace: str, row: dict[str, Any]) -> EventPublic:
    return EventPublic.model_validate({**row, "cursor": event_cursor(namespace, int(row["position"]))})


@router.get("", response_model=EventPage, responses=error_responses(401, 404, 422, 503))
async def read_events(namespace: Namespace, rt: RuntimeDep, after: After = None,
                      limit: Annotated[int, Query(ge=1, le=use.MAX_PAGE)] = 100) -> EventPage:
    """The namespace's changes after the cursor `after`, oldest first, each once: ids and metadata, never
    content. `next` continues from this page (it is `after` again when nothing is new)."""
    page = await use.read(rt, namespace, after=event_position(namespace, after), limit=limit)
    items = [public(namespace, e) for e in page.events]
    return EventPage(items=items, next=items[-1].cursor if items else event_cursor(
        namespace, event_position(namespace, after)), more=page.more)


async def _tail(rt: Runtime, request: Request, namespace: str, after: int) -> AsyncIterator[str]:
    pinged = time.monotonic()
    while not await request.is_disconnected():
        page = await use.read(rt, namespace, after=after, limit=use.MAX_PAGE)
        for row in page.events:
            event = public(namespace, row)
            after = event.position
            yield f"id: {event.cursor}\nevent: {event.kind}\ndata: {event.model_dump_json()}\n\n"
        if page.more:
            continue
        if time.monotonic() - pinged > STREAM_PING_S:
            pinged = time.monotonic()
            yield ": ping\n\n"
        await asyncio.sleep(STREAM_POLL_S)


@router.get("/stream", responses={200: {"content": {"text/event-stream": {}},
                                        "description": "Server-Sent Events: `id` is the event's cursor, `event` its "
                                                       "kind, `data` the event (EventPublic) as JSON"},
                                  **error_responses(401, 404, 422, 503)})
async def stream_events(namespace: Namespace, rt: RuntimeDep, request: Request, after: After = None,
                        last_event_id: Annotated[str | None, Header(max_length=500)] = None) -> StreamingResponse:
    """The namespace's changes as Server-Sent Events, from the cursor `after` (or the `Last-Event-ID` a
    reconnecting EventSource sends, which wins) and then as they happen."""
    start = event_position(namespace, last_event_id or after)
    await use.read(rt, namespace, after=start, limit=1)  # refusals (Neo4j away) answer before the stream starts
    return StreamingResponse(_tail(rt, request, namespace, start), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


