"""The event feed and webhooks: what the feed answers (ids and metadata of every change, never content) and how an
operator registers a webhook. Pydantic only."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, HttpUrl

# The feed's kinds: the change an event records (docs/events.md).
EVENT_KINDS = (
    "save", "quarantine", "update", "delete", "restore", "approve", "reject", "archive", "remove", "evict",
    "supersede", "stale", "fresh", "clear", "import", "refuse", "scope_create", "scope_delete", "write_policy",
)
EventKind = Literal[
    "save", "quarantine", "update", "delete", "restore", "approve", "reject", "archive", "remove", "evict",
    "supersede", "stale", "fresh", "clear", "import", "refuse", "scope_create", "scope_delete", "write_policy",
]


class EventPublic(BaseModel):
    """One change, as the feed tells it: ids and metadata, never a record's content (nor a refused write's text:
    a refusal carries its rule and the content's SHA-256 only)."""

    id: str
    cursor: str = Field(description="resume after this event: pass it as `after`")
    position: int = Field(description="the event's place in its namespace's feed: 1, 2, 3, … with no gap")
    kind: str = Field(description="the change: " + ", ".join(EVENT_KINDS))
    op: str = Field(description="the audit trail's op for the change")
    namespace: str
    scope_id: str | None = None
    record_id: str | None = None
    family: str | None = None
    revision: int | None = None
    status: str | None = None
    actor: str | None = Field(None, description="the API key id that made the change")
    at: datetime = Field(description="the change's record time")
    hold_reason: str | None = None
    pass_id: str | None = None
    superseded_by: str | None = None
    rule: str | None = Field(None, description="the rule of a refusal, an archive, a remove or an eviction")
    code: str | None = Field(None, description="a refusal's error code")
    content_sha256: str | None = Field(None, description="a refused or rejected write's content hash")


class EventPage(BaseModel):
    items: list[EventPublic]
    next: str = Field(description="the cursor to read on from (this page's last event, else the one sent)")
    more: bool = Field(description="whether events after this page exist already")


class WebhookCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    namespace: str = Field(min_length=1, max_length=128)
    url: HttpUrl
    kinds: list[EventKind] | None = Field(None, description="the kinds delivered (all when absent)")
    after: str | None = Field(None, description="deliver the events after this cursor (default: from now on)")


class WebhookPublic(BaseModel):
    id: str
    namespace: str
    url: str
    kinds: list[str] | None = None
    cursor: str = Field(description="the events up to this cursor are delivered")
    created_at: datetime
    failures: int = 0
    next_attempt_at: datetime | None = None
    last_error: str | None = None


class WebhookCreated(WebhookPublic):
    secret: str = Field(description="signs every delivery (Standard Webhooks); shown once, at creation")


class WebhookList(BaseModel):
    items: list[WebhookPublic]


class WebhookReplay(BaseModel):
    model_config = ConfigDict(extra="forbid")

    after: str = Field(description="deliver again every event after this cursor")


class DeliveryPublic(BaseModel):
    id: str = Field(description="the `webhook-id` header sent")
    webhook_id: str
    at: datetime
    status: int | None = Field(None, description="the receiver's HTTP status; none when it did not answer")
    ok: bool
    error: str | None = None
    attempt: int
    first: int = Field(description="the position of the first event sent")
    last: int = Field(description="the position of the last event sent")
    events: int


class DeliveryList(BaseModel):
    items: list[DeliveryPublic]
