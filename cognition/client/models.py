"""The typed models: the service's own public pydantic schemas, imported (never copied), so the client and the
API cannot drift apart. Writes are validated with the same schemas before they are sent."""

from __future__ import annotations

from service.api.context import ContextRequest, ContextResponse
from service.api.digest import DecisionPublic, DigestPassCreate, PassOutcome, PassPublic
from service.api.gc import GCRunCreate
from service.api.keys import KeyCreate, KeyCreated, KeyList, KeyPublic, WhoAmI
from service.api.schemas import (
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
    WorkingStateCreate,
    WorkingStatePublic,
    WorkingStateUpdate,
    WritePolicy,
)
from service.api.scopes import ScopeCreate, ScopeDeleted, ScopePublic

__all__ = [
    "ArtifactPublic", "Cleared", "ContextRequest", "ContextResponse", "DecisionPublic", "Deleted", "DigestPassCreate",
    "EdgeCreate", "EdgePublic", "GCRunCreate", "History", "HistoryItem", "Items", "KernelPublic", "KernelUpdate",
    "KeyCreate", "KeyCreated", "KeyList", "KeyPublic", "KnowledgeCreate", "KnowledgePublic", "KnowledgeUpdate",
    "MemoryBatch", "MemoryCreate", "MemoryPublic", "MemoryUpdate", "Page", "PassOutcome", "PassPublic", "ScopeCreate",
    "ScopeDeleted", "ScopePublic", "SearchHit", "SearchHitKnowledge", "SearchHitMemory", "SearchHitSkill",
    "SearchRequest", "SearchResults", "SkillCreate", "SkillPublic", "SkillUpdate", "WhoAmI", "WorkingStateCreate",
    "WorkingStatePublic", "WorkingStateUpdate", "WritePolicy",
]
