"""`cognition.schemas`: the records every surface speaks — the HTTP API validates with them, the MCP tools answer
with them, the client sends and reads them. Pydantic only: nothing here imports the server."""

from cognition.schemas.context import ContextRequest, ContextResponse
from cognition.schemas.digest import DecisionPublic, DigestPassCreate, GCRunCreate, PassOutcome, PassPublic
from cognition.schemas.errors import ErrorBody
from cognition.schemas.records import (
    ArtifactPublic,
    Cleared,
    Decision,
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
    WriteBody,
    WritePolicy,
)
from cognition.schemas.scopes import (
    ImportOutcome,
    KeyCreate,
    KeyCreated,
    KeyList,
    KeyPublic,
    ScopeCreate,
    ScopeDeleted,
    ScopePublic,
    WhoAmI,
)
from cognition.schemas.vocabulary import EdgeType, Family, Kind, Source, Status, Tier

__all__ = [
    "ArtifactPublic", "Cleared", "ContextRequest", "ContextResponse", "Decision", "DecisionPublic", "Deleted",
    "DigestPassCreate", "EdgeCreate", "EdgePublic", "EdgeType", "ErrorBody", "Family", "GCRunCreate", "History",
    "HistoryItem", "ImportOutcome", "Items", "KernelPublic", "KernelUpdate", "KeyCreate", "KeyCreated", "KeyList",
    "KeyPublic", "Kind", "KnowledgeCreate", "KnowledgePublic", "KnowledgeUpdate", "MemoryBatch", "MemoryCreate",
    "MemoryPublic", "MemoryUpdate", "Page", "PassOutcome", "PassPublic", "ScopeCreate", "ScopeDeleted", "ScopePublic",
    "SearchHit", "SearchHitKnowledge", "SearchHitMemory", "SearchHitSkill", "SearchRequest", "SearchResults",
    "SkillCreate", "SkillPublic", "SkillUpdate", "Source", "Status", "Tier", "WhoAmI", "WorkingStateCreate",
    "WorkingStatePublic", "WorkingStateUpdate", "WriteBody", "WritePolicy",
]
