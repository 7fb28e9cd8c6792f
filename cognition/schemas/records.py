"""The records on the wire: `XCreate` / `XUpdate` / `XPublic` per family, search, history, edges, write policy.
Pydantic only; the server validates requests with these and the client validates its writes with them before
sending. Service-owned metadata is refused by name."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from cognition.schemas.vocabulary import SERVICE_OWNED, EdgeType, Family, Kind, Source, Status, Tier

MAX_CONTENT = 32_768  # characters
MAX_BATCH = 1000

Content = Annotated[str, Field(min_length=1, max_length=MAX_CONTENT)]
Tag = Annotated[str, Field(min_length=1, max_length=64)]
Tags = Annotated[list[Tag], Field(max_length=32)]
Subject = Annotated[str, Field(min_length=1, max_length=200)]
Trust = Annotated[float, Field(ge=0.0, le=1.0)]
Short = Annotated[str, Field(min_length=1, max_length=500)]
ArtifactId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9-]+$")]


def _neo4j_offset(value: datetime) -> datetime:
    """Neo4j keeps a UTC offset within ±18:00 where Python allows ±24:00; a time beyond it reached the database as a
    value it could not read, and the request failed with a 500 (found by the schemathesis run). Refused here."""
    offset = value.utcoffset()
    if offset is not None and abs(offset) > timedelta(hours=18):
        raise PydanticCustomError("datetime_offset", "the UTC offset must be within -18:00 and +18:00")
    return value


Instant = Annotated[datetime, AfterValidator(_neo4j_offset)]  # a time the API takes in: an offset Neo4j can hold


class WriteBody(BaseModel):
    """Base of every write payload: unknown fields are refused, service-owned ones by name."""

    model_config = ConfigDict(extra="forbid")
    family: ClassVar[Family]

    @model_validator(mode="before")
    @classmethod
    def _no_service_owned(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for key in data:
                if key in SERVICE_OWNED:
                    raise PydanticCustomError(
                        "service_owned_field", "'{field}' is computed by the service and cannot be set",
                        {"field": key, "code": "service_owned_field"})
        return data


Metadata = Annotated[dict[str, Any], Field(max_length=64, description="free-form caller metadata (JSON object)")]
SourceField = Annotated[Source | None, Field(
    None, description="where the content came from (provenance): user, agent, tool, web or import. Defaults "
                      "from the key's role (operator → user, agent → agent); an agent key may not claim `user`. "
                      "Memories from tool, web or import reach the eager constraints / instructions arms of "
                      "the context call only once an operator approved them")]


class _Common(WriteBody):
    source: SourceField = None
    tags: Tags = []
    subject: Subject | None = Field(None, description="records of one scope with the same subject are about "
                                                      "the same thing (used by supersession)")
    trust: Trust = 0.5
    metadata: Metadata = {}


class MemoryCreate(_Common):
    family: ClassVar[Family] = Family.memory
    kind: Kind
    tier: Tier
    content: Content


class MemoryUpdate(WriteBody):
    family: ClassVar[Family] = Family.memory
    content: Content | None = None
    tags: Tags | None = None
    subject: Subject | None = None
    trust: Trust | None = None
    metadata: Metadata | None = None


class Relation(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z][A-Za-z0-9_ -]*$")]
    to_id: ArtifactId


class KnowledgeCreate(_Common):
    family: ClassVar[Family] = Family.knowledge
    title: Short
    body: Content
    relations: Annotated[list[Relation], Field(max_length=100)] = []


class KnowledgeUpdate(WriteBody):
    family: ClassVar[Family] = Family.knowledge
    title: Short | None = None
    body: Content | None = None
    tags: Tags | None = None
    subject: Subject | None = None
    trust: Trust | None = None
    metadata: Metadata | None = None


Step = Annotated[str, Field(min_length=1, max_length=2000)]


class SkillCreate(_Common):
    family: ClassVar[Family] = Family.skill
    name: Short
    when_to_use: Content
    steps: Annotated[list[Step], Field(min_length=1, max_length=100)]


class SkillUpdate(WriteBody):
    family: ClassVar[Family] = Family.skill
    name: Short | None = None
    when_to_use: Content | None = None
    steps: Annotated[list[Step], Field(min_length=1, max_length=100)] | None = None
    tags: Tags | None = None
    subject: Subject | None = None
    trust: Trust | None = None
    metadata: Metadata | None = None


class KernelUpdate(WriteBody):
    """A kernel is a revisioned document: every update replaces its content as a new revision."""

    family: ClassVar[Family] = Family.agent_kernel
    content: Annotated[str, Field(max_length=MAX_CONTENT)]
    metadata: Metadata | None = None


class WorkingStateCreate(WriteBody):
    family: ClassVar[Family] = Family.working_state
    source: SourceField = None
    content: Content
    tags: Tags = []
    metadata: Metadata = {}


class WorkingStateUpdate(WriteBody):
    family: ClassVar[Family] = Family.working_state
    content: Content | None = None
    tags: Tags | None = None
    metadata: Metadata | None = None


class MemoryBatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    items: Annotated[list[MemoryCreate], Field(min_length=1, max_length=MAX_BATCH)]


# ---- public shapes ----------------------------------------------------------------------------------------

class _PublicBase(BaseModel):
    id: str
    scope_id: str
    status: Status
    tags: list[str] = []
    subject: str | None = None
    trust: float = 0.5
    metadata: dict[str, Any] = {}
    content_hash: str | None = None
    created_at: datetime
    updated_at: datetime
    accessed_at: datetime
    recall_count: int
    stale: bool
    conflicted: bool
    revision: int
    # Provenance and quarantine (service-owned): who the content came from, which operator approved it, and
    # why a pending record is held (`suspected_injection`, with the learned detector's score).
    source: Source | None = None
    approved_by: str | None = None
    approved_at: datetime | None = None
    hold_reason: str | None = None
    hold_score: float | None = None
    hold_layer: str | None = None  # the detector's layer that held it ("encoder"), beside its score


class MemoryPublic(_PublicBase):
    family: Literal["memory"] = "memory"
    kind: Kind
    tier: Tier
    content: str


class KnowledgePublic(_PublicBase):
    family: Literal["knowledge"] = "knowledge"
    title: str
    body: str
    relations: list[dict[str, str]] = []


class SkillPublic(_PublicBase):
    family: Literal["skill"] = "skill"
    name: str
    when_to_use: str
    steps: list[str]


class KernelPublic(_PublicBase):
    family: Literal["agent_kernel", "world_kernel"]
    content: str


class WorkingStatePublic(_PublicBase):
    family: Literal["working_state"] = "working_state"
    content: str


ArtifactPublic = Annotated[MemoryPublic | KnowledgePublic | SkillPublic | KernelPublic | WorkingStatePublic,
                           Field(discriminator="family")]


class Page(BaseModel):
    items: list[ArtifactPublic]
    next_cursor: str | None = None


class Items(BaseModel):
    items: list[ArtifactPublic]


class SearchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    query: Annotated[str, Field(min_length=1, max_length=1000)]
    kind: Kind | None = None
    tier: Tier | None = None
    tag: Tag | None = None
    include_archived: bool = False
    limit: Annotated[int, Field(ge=1, le=100)] = 10


class SearchHitMemory(MemoryPublic):
    score: float


class SearchHitKnowledge(KnowledgePublic):
    score: float


class SearchHitSkill(SkillPublic):
    score: float


SearchHit = Annotated[SearchHitMemory | SearchHitKnowledge | SearchHitSkill, Field(discriminator="family")]


class SearchResults(BaseModel):
    items: list[SearchHit]


class HistoryItem(BaseModel):
    type: Literal["revision", "event"]
    at: datetime
    revision: int | None = None
    actor: str | None = None
    op: str | None = None
    content_hash: str | None = None
    content: str | None = None
    reason: str | None = None
    model_config = ConfigDict(extra="allow")


class History(BaseModel):
    items: list[HistoryItem]


class EdgeCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: EdgeType
    from_id: ArtifactId
    to_id: ArtifactId
    relation: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z][A-Za-z0-9_ -]*$")] | None = Field(
        None, description="the knowledge relation's type; required with RELATES_TO, refused otherwise")


class EdgePublic(BaseModel):
    type: EdgeType
    from_id: str
    to_id: str
    relation: str | None = None


class Deleted(BaseModel):
    id: str
    status: Literal["removed"] = "removed"
    detached: list[str] = []


class Cleared(BaseModel):
    cleared: int


WriteMode = Literal["auto", "require_approval", "deny"]


class WritePolicy(BaseModel):
    """A scope's write-approval policy. The most specific rule wins: `by_kind`, then `by_family`, then
    `default`. `require_approval` stores new records as `pending`; `deny` refuses writes (403)."""

    model_config = ConfigDict(extra="forbid")
    default: WriteMode = "auto"
    by_family: dict[Family, WriteMode] = {}
    by_kind: dict[Kind, WriteMode] = {}


class Decision(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: Annotated[str, Field(max_length=500)] | None = None
