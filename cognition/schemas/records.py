"""The records on the wire: `XCreate` / `XUpdate` / `XPublic` per family, search, history, edges, write policy.
Pydantic only; the server validates requests with these and the client validates its writes with them before
sending. Service-owned metadata is refused by name."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, AwareDatetime, BaseModel, ConfigDict, Field, model_validator
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
# A time a record carries (when it happened, when it held): the time zone is required, so that an instant never
# depends on where the service runs.
Moment = Annotated[AwareDatetime, AfterValidator(_neo4j_offset)]
MAX_SUPERSEDES = 20

OccurredAt = Annotated[Moment | None, Field(
    None, description="when the thing happened (the conversation, the observation); time zone required; not in the "
                      "future; defaults to the save time")]
ValidFrom = Annotated[Moment | None, Field(
    None, description="when the fact began to hold in the world (valid time); defaults to occurred_at")]
ValidUntil = Annotated[Moment | None, Field(
    None, description="when the fact stopped holding (exclusive); open (null) by default; a supersession closes it")]
Supersedes = Annotated[list[Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9-]+$")]], Field(
    max_length=MAX_SUPERSEDES,
    description="ids of records of this scope and family that this one replaces: their valid_until is closed at "
                "this record's valid_from, they are flagged conflicted and stay readable")]


def _validity_ordered(valid_from: datetime | None, valid_until: datetime | None) -> None:
    if valid_from is not None and valid_until is not None and valid_until <= valid_from:
        raise PydanticCustomError("invalid_validity", "valid_until must be after valid_from",
                                  {"code": "invalid_validity"})


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
    occurred_at: OccurredAt = None
    tags: Tags = []
    subject: Subject | None = Field(None, description="records of one scope with the same subject are about "
                                                      "the same thing (used by supersession)")
    trust: Trust = 0.5
    metadata: Metadata = {}


class _Valid(BaseModel):
    """Valid time (memories and knowledge pages): when the fact held in the world."""

    valid_from: ValidFrom = None
    valid_until: ValidUntil = None

    @model_validator(mode="after")
    def _ordered(self) -> Any:
        _validity_ordered(self.valid_from, self.valid_until)
        return self


class MemoryCreate(_Common, _Valid):
    family: ClassVar[Family] = Family.memory
    kind: Kind
    tier: Tier
    content: Content
    supersedes: Supersedes = []


class MemoryUpdate(WriteBody, _Valid):
    family: ClassVar[Family] = Family.memory
    content: Content | None = None
    tags: Tags | None = None
    subject: Subject | None = None
    trust: Trust | None = None
    metadata: Metadata | None = None
    occurred_at: OccurredAt = None
    supersedes: Supersedes | None = None


class Relation(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z][A-Za-z0-9_ -]*$")]
    to_id: ArtifactId


class KnowledgeCreate(_Common, _Valid):
    family: ClassVar[Family] = Family.knowledge
    title: Short
    body: Content
    relations: Annotated[list[Relation], Field(max_length=100)] = []
    supersedes: Supersedes = []


class KnowledgeUpdate(WriteBody, _Valid):
    family: ClassVar[Family] = Family.knowledge
    title: Short | None = None
    body: Content | None = None
    tags: Tags | None = None
    subject: Subject | None = None
    trust: Trust | None = None
    metadata: Metadata | None = None
    occurred_at: OccurredAt = None
    supersedes: Supersedes | None = None


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
    occurred_at: OccurredAt = None


class KernelUpdate(WriteBody):
    """A kernel is a revisioned document: every update replaces its content as a new revision."""

    family: ClassVar[Family] = Family.agent_kernel
    content: Annotated[str, Field(max_length=MAX_CONTENT)]
    metadata: Metadata | None = None


class WorkingStateCreate(WriteBody):
    family: ClassVar[Family] = Family.working_state
    source: SourceField = None
    occurred_at: OccurredAt = None
    content: Content
    tags: Tags = []
    metadata: Metadata = {}


class WorkingStateUpdate(WriteBody):
    family: ClassVar[Family] = Family.working_state
    content: Content | None = None
    tags: Tags | None = None
    metadata: Metadata | None = None
    occurred_at: OccurredAt = None


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
    # Time: when it happened (every family), and when it held in the world (memories and knowledge pages; null
    # elsewhere). created_at / updated_at and the revisions are the store's own clock.
    occurred_at: datetime | None = None
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    # A caller's key, unique in the scope (`PUT …/memories-by-key?key=`: a put with the key makes a new revision).
    key: str | None = None
    hold_layer: str | None = None  # the detector's layer that held it ("encoder", "ngram", "pattern"), beside its score


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


class TimeSpan(BaseModel):
    """A time expression of a query ("last week", "去年", "May 2023") and the interval [start, end) it names."""

    text: str
    start: datetime
    end: datetime


class TimeView(BaseModel):
    """Which view of time an answer was read in. `as_of` is valid time (what held in the world then; the answer
    holds only records valid at that instant unless `include_invalid`); `known_at` is record time (the store as it
    was then: revisions, statuses and deletions replayed), null for the store as it is; `now` is the instant the
    query's relative phrases were resolved against, and `resolved` what they named."""

    as_of: datetime
    known_at: datetime | None = None
    include_invalid: bool = False
    now: datetime | None = None
    resolved: list[TimeSpan] = []


AsOf = Annotated[Moment | None, Field(
    None, description="valid time: answer what held in the world at this instant (default: now)")]
KnownAt = Annotated[Moment | None, Field(
    None, description="record time: answer from the store as it was at this instant (revisions, statuses and "
                      "deletions replayed; default: the store as it is). Never counts as a recall")]
Now = Annotated[Moment | None, Field(
    None, description="the question's own date: relative phrases ('yesterday', 'last week', 'in May', '去年', "
                      "'上个月') are resolved against it and rank records that occurred then higher; also the "
                      "default as_of")]


class Page(BaseModel):
    items: list[ArtifactPublic]
    next_cursor: str | None = None
    view: TimeView | None = None


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
    occurred_after: Moment | None = Field(None, description="only records that occurred at or after this instant")
    occurred_before: Moment | None = Field(None, description="only records that occurred before this instant")
    as_of: AsOf = None
    known_at: KnownAt = None
    include_invalid: bool = Field(False, description="also records not valid at as_of (superseded, expired, not yet "
                                                     "valid)")
    now: Now = None


class SearchHitMemory(MemoryPublic):
    score: float


class SearchHitKnowledge(KnowledgePublic):
    score: float


class SearchHitSkill(SkillPublic):
    score: float


SearchHit = Annotated[SearchHitMemory | SearchHitKnowledge | SearchHitSkill, Field(discriminator="family")]


class SearchResults(BaseModel):
    items: list[SearchHit]
    view: TimeView | None = None


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
    view: TimeView | None = None


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
