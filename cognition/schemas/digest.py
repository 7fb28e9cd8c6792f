"""Digest passes and GC runs on the wire."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from cognition.schemas.records import Instant
from cognition.schemas.scopes import Ident

Phases = Annotated[list[Literal["archive", "remove"]], Field(min_length=1, max_length=2)]


class DigestPassCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    namespace: Ident
    cognitive_owner: Ident
    phases: Phases
    dry_run: bool = False
    as_of: Instant | None = Field(None, description="dry runs only: evaluate the time-based rules at this instant")


class GCRunCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    namespace: Ident
    cognitive_owner: Ident
    phases: Phases = ["archive"]
    max_entries: Annotated[int, Field(ge=0, le=10_000_000)] | None = Field(
        None, description="override the configured per-partition maximum for this run")
    dry_run: bool = False
    as_of: Instant | None = Field(None, description="dry runs only: evaluate TTLs at this instant")


class DecisionPublic(BaseModel):
    id: str
    action: str
    rule: str
    rules: list[str] = []
    artifact_id: str
    scope_id: str
    family: str | None = None
    cites: list[str] = []
    path: list[str] = []


class PassPublic(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str | None
    kind: str
    phase: str
    namespace: str
    cognitive_owner: str
    state: str
    dry_run: bool = False


class PassOutcome(BaseModel):
    pass_: PassPublic = Field(alias="pass")
    decisions: list[DecisionPublic]
    model_config = ConfigDict(populate_by_name=True)
