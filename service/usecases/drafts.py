"""What a write asks for, as the use cases read it: a `Draft` (a record to save) or a `Change` (a new revision of
one, naming the revision it was read at). The adapters make them from the wire schemas (`draft_of`, `change_of`);
the use cases never see a request model, a header or a status."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from cognition.schemas.records import WriteBody
from cognition.schemas.vocabulary import Family, Source

# What a family stores as its searchable text (`content`) and title, from the fields the caller sent.
_TITLE = {Family.knowledge: "title", Family.skill: "name"}


@dataclass(frozen=True, slots=True)
class Relation:
    """A knowledge page's typed relation to another page of its scope."""

    type: str
    to_id: str


@dataclass(frozen=True, slots=True)
class Draft:
    """One record to save."""

    family: Family
    content: str  # the searchable text as stored: what the full-text index and the gates read
    title: str | None  # a knowledge page's title, a skill's name
    fields: Mapping[str, Any]  # the caller's other stored fields: kind, tier, tags, subject, trust, name, steps …
    metadata: Mapping[str, Any] = field(default_factory=dict)
    source: Source | None = None  # provenance the caller claims; the use case decides what is stored
    relations: tuple[Relation, ...] = ()
    texts: Mapping[str, str] = field(default_factory=dict)  # every caller text, by field: what the scan reads
    request: Any = None  # the request as JSON: an idempotent save's fingerprint
    # Time (docs/time.md): when it happened; when it held (memories and knowledge pages); what it replaces.
    occurred_at: datetime | None = None
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    supersedes: tuple[str, ...] = ()

    @property
    def tier(self) -> str | None:
        tier = self.fields.get("tier")
        return str(tier) if tier is not None else None


@dataclass(frozen=True, slots=True)
class Change:
    """A new revision of one record: the fields the caller set, and the revision they read."""

    expected_revision: int
    fields: Mapping[str, Any]  # only the fields set (None means "not set"), `body` already named `content`
    texts: Mapping[str, str] = field(default_factory=dict)
    supersedes: tuple[str, ...] = ()  # records this one replaces from its valid_from on

    @property
    def content(self) -> str:
        """The new searchable text the content-quality gate reads ("" when the text does not change)."""
        return str(self.fields.get("content") or self.fields.get("when_to_use") or "")

    def stored(self) -> dict[str, Any]:
        """The properties the update writes: metadata as JSON text, the new text's hash, and the approval dropped
        when the text changes (an operator approved the text they read)."""
        out = {k: (json.dumps(v) if k == "metadata" else v) for k, v in self.fields.items()}
        if "content" in out:
            out["content_hash"] = sha256(out["content"])
        if out.keys() & {"content", "title", "name", "when_to_use", "steps"}:
            out["approved_by"] = out["approved_at"] = None
        if out.keys() & {"content", "title", "name", "when_to_use", "steps", "occurred_at"}:
            out["said"] = None  # the times its text names, resolved again by the search (service/search/temporal)
        return out


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_TIMES = ("occurred_at", "valid_from", "valid_until")


def draft_of(body: WriteBody) -> Draft:
    """A create schema (`MemoryCreate`, `KnowledgeCreate`, `SkillCreate`, `WorkingStateCreate`) as a draft."""
    family = body.family
    data = body.model_dump(exclude={"relations", "metadata", "source", "supersedes", *_TIMES}, exclude_none=True)
    if family is Family.knowledge:
        content = data.pop("body")
    elif family is Family.skill:
        content = data["when_to_use"] + "\n" + "\n".join(data["steps"])
    else:
        content = data.pop("content")
    title = data.get(_TITLE[family]) if family in _TITLE else None
    relations = tuple(Relation(r.type, r.to_id) for r in getattr(body, "relations", []))
    return Draft(family=family, content=content, title=title,
                 fields={k: (v.value if hasattr(v, "value") else v) for k, v in data.items()},
                 metadata=getattr(body, "metadata", {}) or {}, source=getattr(body, "source", None),
                 relations=relations, texts=scan_texts(body), request=body.model_dump(mode="json"),
                 occurred_at=getattr(body, "occurred_at", None), valid_from=getattr(body, "valid_from", None),
                 valid_until=getattr(body, "valid_until", None), supersedes=tuple(getattr(body, "supersedes", ())))


def change_of(body: WriteBody, expected_revision: int) -> Change:
    """An update schema (`MemoryUpdate`, … `KernelUpdate`) as a change of the revision the caller read."""
    data = body.model_dump(exclude_unset=True, exclude_none=True, exclude={"supersedes"})
    fields = {("content" if k == "body" else k): v for k, v in data.items()}
    return Change(expected_revision=expected_revision, fields=fields, texts=scan_texts(body),
                  supersedes=tuple(getattr(body, "supersedes", None) or ()))


def scan_texts(body: WriteBody) -> dict[str, str]:
    """Every caller-supplied text of a write, by field (`tags[0]`, `metadata.a.b`, `metadata.a#key`), for the
    threat scan."""
    out: dict[str, str] = {}
    for name, value in body.model_dump(exclude_none=True, exclude={"source", "supersedes"}).items():
        if isinstance(value, str):
            out[name] = value
        elif isinstance(value, list):
            for i, v in enumerate(value):
                if isinstance(v, str):
                    out[f"{name}[{i}]"] = v
                elif isinstance(v, dict):
                    out.update({f"{name}[{i}].{k}": s for k, s in v.items() if isinstance(s, str)})
        elif isinstance(value, dict):
            out.update(_flatten(name, value))
    return out


def _flatten(prefix: str, value: Any) -> dict[str, str]:
    if isinstance(value, str):
        return {prefix: value}
    if isinstance(value, dict):
        out: dict[str, str] = {}
        for k, v in value.items():
            out.update(_flatten(f"{prefix}.{k}", v))
            out[f"{prefix}.{k}#key"] = str(k)
        return out
    if isinstance(value, list):
        out = {}
        for i, v in enumerate(value):
            out.update(_flatten(f"{prefix}[{i}]", v))
        return out
    return {}
