"""Scopes, API keys and scope import on the wire."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

# Namespaces and owners become partition keys and key grants: a conservative alphabet.
IDENT_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.:@-]*$"
Ident = Annotated[str, Field(min_length=1, max_length=128, pattern=IDENT_PATTERN)]


class ScopeCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    namespace: Ident
    cognitive_owner: Ident
    name: Annotated[str, Field(min_length=1, max_length=200, pattern=r"^[^\x00-\x1f\x7f]+$")]


class ScopePublic(BaseModel):
    id: str
    namespace: str
    cognitive_owner: str
    name: str
    created_at: datetime
    agent_kernel_id: str
    world_kernel_id: str


class ScopeDeleted(BaseModel):
    id: str
    deleted: int = Field(description="artifacts, tombstones and revisions removed with the scope")


class ImportOutcome(BaseModel):
    scope: ScopePublic
    counts: dict[str, int]
    id_map: dict[str, str] | None = None


Role = Literal["agent", "operator", "auditor"]
Namespace = Annotated[str, Field(min_length=1, max_length=128, pattern=r"^(\*|[A-Za-z0-9][A-Za-z0-9_.:@-]*)$")]


class KeyCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    namespaces: Annotated[list[Namespace], Field(min_length=1, max_length=100,
                                                 description="namespaces the key holds; `*` = every namespace "
                                                             "(only a key holding `*` may grant it)")]
    role: Role


class KeyCreated(BaseModel):
    id: str
    key: str = Field(description="the secret: shown this once, stored only as a hash")
    role: Role
    namespaces: list[str]


class KeyPublic(BaseModel):
    id: str
    role: Role
    namespaces: list[str]
    created_at: datetime
    revoked_at: datetime | None = None
    created_by: str | None = None


class KeyList(BaseModel):
    items: list[KeyPublic]


class WhoAmI(BaseModel):
    key_id: str
    role: Role
    namespaces: list[str]


class ScopeListed(BaseModel):
    """A scope in a partition's listing (`GET /v1/scopes?namespace=&cognitive_owner=`)."""

    id: str
    namespace: str
    cognitive_owner: str
    name: str
    created_at: datetime
    keyed: bool = Field(description="whether it holds a record with a caller's key that is active or pending")


class ScopePage(BaseModel):
    items: list[ScopeListed]
    next_cursor: str | None = None
