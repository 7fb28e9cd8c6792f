"""The graph model: labels, family groups, and the domain record read back from Neo4j.

Domain models here do no I/O; the wire schemas (`XCreate` / `XUpdate` / `XPublic`) live in `cognition/schemas/`."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict

# The vocabulary is the wire's (cognition/schemas/vocabulary.py), re-exported for the server's modules.
from cognition.schemas.vocabulary import (
    SERVICE_OWNED,
    UNTRUSTED_SOURCES,
    EdgeType,
    Family,
    Kind,
    Source,
    Status,
    Tier,
)

__all__ = ["ADVISORY", "EMBEDDING_PROPS", "GC_EXEMPT_KINDS", "INDEX_PROPS", "KERNELS", "LABELS", "SERVICE_OWNED",
           "TEXT_TIMES", "UNTRUSTED_SOURCES", "VALID_TIME", "Artifact", "EdgeType", "Family", "Kind", "Source",
           "Status", "Tier", "artifact_row", "native", "native_props", "text_time"]

LABELS: dict[Family, str] = {
    Family.agent_kernel: "AgentKernel",
    Family.world_kernel: "WorldKernel",
    Family.memory: "Memory",
    Family.knowledge: "Knowledge",
    Family.skill: "Skill",
    Family.working_state: "WorkingState",
}
KERNELS = frozenset({Family.agent_kernel, Family.world_kernel})
ADVISORY = frozenset({Family.memory, Family.knowledge, Family.skill})
GC_EXEMPT_KINDS = frozenset({Kind.constraint, Kind.instruction, Kind.environment})
VALID_TIME = frozenset({Family.memory, Family.knowledge})  # the families with valid_from / valid_until

# Written by the embed step of the write pipeline; never part of the public record.
EMBEDDING_PROPS = frozenset({"embedding", "embedding_model", "embedding_revision", "embedded_at"})
# Kept beside a record for the search (`said`: the intervals its text names, service/search/temporal) and the
# context arms' indexes (`ranked`: cypher/fragments/ranked.cypher); not the record.
INDEX_PROPS = frozenset({"said", "ranked"})
# Read back as text (cypher/fragments/artifact_row).
TEXT_TIMES = ("created_at", "updated_at", "accessed_at", "occurred_at", "valid_from", "valid_until")


class Artifact(BaseModel):
    """An artifact as stored (one node), with Neo4j temporal values made native."""

    model_config = ConfigDict(extra="forbid")

    id: str
    scope_id: str
    family: Family
    status: Status
    kind: Kind | None = None
    tier: Tier | None = None
    content: str = ""
    title: str | None = None
    name: str | None = None
    when_to_use: str | None = None
    steps: list[str] | None = None
    tags: list[str] = []
    subject: str | None = None
    trust: float = 0.5
    metadata: dict[str, Any] = {}
    content_hash: str | None = None
    created_at: datetime
    updated_at: datetime
    accessed_at: datetime
    recall_count: int = 0
    stale: bool = False
    conflicted: bool = False
    revision: int = 1
    created_by: str | None = None
    relations: list[dict[str, str]] = []  # outgoing RELATES_TO {type} (knowledge pages)
    negating: bool | None = None  # explicit negation / cancellation markers (supersession)
    subject_derived: bool = False  # subject derived from the text (digest.negation.derive_subject)
    archived_at: datetime | None = None
    archived_by: str | None = None  # the digest / GC pass that archived it
    restored_at: datetime | None = None
    source: Source | None = None  # provenance; None on records saved before it was recorded
    approved_by: str | None = None  # the operator key that approved it (write approval, quarantine, or source)
    approved_at: datetime | None = None
    hold_reason: str | None = None  # why it was stored pending: "suspected_injection" (quarantine)
    hold_score: float | None = None  # the learned detector's score that put it on hold
    # Time (docs/time.md): when it happened; when it held in the world (memories and knowledge pages).
    occurred_at: datetime | None = None
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    key: str | None = None  # a caller's key, unique in the scope (PUT …/memories-by-key; the LangGraph store)
    hold_layer: str | None = None  # which of the detector's layers held it ("encoder"; "ngram", "pattern": short lines)

    @classmethod
    def from_node(cls, props: dict[str, Any]) -> Artifact:
        # Vectors (service/search/embedding.py) stay in the graph: not part of the record.
        data = _parse_text_times({k: native(v) for k, v in props.items()
                                  if k not in EMBEDDING_PROPS and k not in INDEX_PROPS})
        if isinstance(data.get("metadata"), str):
            data["metadata"] = json.loads(data["metadata"])
        return cls.model_validate(data)

    @property
    def etag(self) -> str:
        return f'"{self.id}.{self.revision}"'


def text_time(text: str) -> datetime:
    """A Neo4j DateTime's `toString()` made the datetime the driver's hydration makes of the value: a named zone
    after the offset ("…+01:00[Europe/Berlin]") is dropped (the offset fixes the instant) and digits beyond the
    microsecond are truncated, as `neo4j.time.DateTime.to_native` truncates them."""
    return datetime.fromisoformat(text[:text.rindex("[")] if text.endswith("]") else text)


def _parse_text_times(row: dict[str, Any]) -> dict[str, Any]:
    """The three times of a row read through cypher/fragments/artifact_row.cypher, ISO text, made datetimes."""
    for k in TEXT_TIMES:
        if isinstance(row.get(k), str):
            row[k] = text_time(row[k])
    return row


def artifact_row(props: dict[str, Any]) -> dict[str, Any]:
    """A raw artifact row (cypher/fragments/artifact_row.cypher) with its values Python-native and its three
    times, read as text, datetimes again: what `native_props` makes of a row that holds DateTimes."""
    return _parse_text_times(native_props(props))


_PLAIN = (str, int, float, bool, type(None))  # what Bolt hands over as Python values already


def native(value: Any) -> Any:
    """A value read from Neo4j with its temporal values made Python-native, inside maps and lists too. Plain
    values, and lists of them (tags), are passed through without a call per item: a context call converts some
    eighty rows of up to thirty tags each."""
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, list):
        return list(value) if all(isinstance(v, _PLAIN) for v in value) else [native(v) for v in value]
    if isinstance(value, dict):
        return {k: native(v) for k, v in value.items()}
    to_native = getattr(value, "to_native", None)
    return to_native() if callable(to_native) else value


def native_props(props: dict[str, Any]) -> dict[str, Any]:
    return {k: native(v) for k, v in props.items()}
