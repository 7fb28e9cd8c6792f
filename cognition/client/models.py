"""The typed models: the service's own wire schemas (`cognition.schemas`, pydantic only), the very classes the
service validates with, so the client and the API cannot drift apart. Writes are validated with them before they
are sent."""

from __future__ import annotations

from cognition.schemas.context import ContextRequest, ContextResponse
from cognition.schemas.digest import DecisionPublic, DigestPassCreate, GCRunCreate, PassOutcome, PassPublic
from cognition.schemas.events import (
    DeliveryList,
    DeliveryPublic,
    EventPage,
    EventPublic,
    WebhookCreate,
    WebhookCreated,
    WebhookList,
    WebhookPublic,
    WebhookReplay,
)
from cognition.schemas.records import (
    ArtifactPublic,
    Cleared,
    Deleted,
    EdgeCreate,
    EdgePublic,
    History,
    HistoryItem,
    Items,
    KernelPublic,
    KernelUpdate,
    KnowledgeCreate,
    KnowledgePublic,
    KnowledgeUpdate,
    MemoryBatch,
    MemoryCreate,
    MemoryPublic,
    MemoryUpdate,
    Page,
    SearchHit,
    SearchHitKnowledge,
    SearchHitMemory,
    SearchHitSkill,
    SearchRequest,
    SearchResults,
    SkillCreate,
    SkillPublic,
    SkillUpdate,
    TimeSpan,
    TimeView,
    WorkingStateCreate,
    WorkingStatePublic,
    WorkingStateUpdate,
    WritePolicy,
)
from cognition.schemas.scopes import (
    KeyCreate,
    KeyCreated,
    KeyList,
    KeyPublic,
    ScopeCreate,
    ScopeDeleted,
    ScopeListed,
    ScopePage,
    ScopePublic,
    WhoAmI,
)

__all__ = [
    "ArtifactPublic", "Cleared", "ContextRequest", "ContextResponse", "DecisionPublic", "Deleted", "DeliveryList",
    "DeliveryPublic", "DigestPassCreate", "EventPage", "EventPublic", "WebhookCreate", "WebhookCreated",
    "WebhookList", "WebhookPublic", "WebhookReplay",
    "EdgeCreate", "EdgePublic", "GCRunCreate", "History", "HistoryItem", "Items", "KernelPublic", "KernelUpdate",
    "KeyCreate", "KeyCreated", "KeyList", "KeyPublic", "KnowledgeCreate", "KnowledgePublic", "KnowledgeUpdate",
    "MemoryBatch", "MemoryCreate", "MemoryPublic", "MemoryUpdate", "Page", "PassOutcome", "PassPublic", "ScopeCreate",
    "ScopeDeleted", "ScopeListed", "ScopePage", "ScopePublic", "SearchHit", "SearchHitKnowledge", "SearchHitMemory",
    "SearchHitSkill", "SearchRequest", "SearchResults", "SkillCreate", "SkillPublic", "SkillUpdate", "TimeSpan",
    "TimeView", "WhoAmI", "WorkingStateCreate", "WorkingStatePublic", "WorkingStateUpdate", "WritePolicy",
]
