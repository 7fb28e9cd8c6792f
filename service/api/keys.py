"""`/v1/keys`: API key management (operators only). A key's secret is answered once, at creation."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Path, Request
from pydantic import BaseModel, ConfigDict, Field

from service import auth
from service.deps import GraphDep, PrincipalDep, get_authenticator, require_role
from service.errors import error_responses

router = APIRouter(prefix="/v1/keys", tags=["keys"])
whoami_router = APIRouter(prefix="/v1", tags=["keys"])

Role = Literal["agent", "operator", "auditor"]
Namespace = Annotated[str, Field(min_length=1, max_length=128, pattern=r"^(\*|[A-Za-z0-9][A-Za-z0-9_.:@-]*)$")]
KeyId = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9-]+$")]


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


def _operator(principal: PrincipalDep) -> auth.Principal:
    require_role(principal, auth.OPERATOR)
    return principal


Operator = Annotated[auth.Principal, Depends(_operator)]


@router.post("", status_code=201, response_model=KeyCreated, responses=error_responses(401, 403, 404, 422, 503))
async def create_key(body: KeyCreate, graph: GraphDep, principal: Operator) -> KeyCreated:
    """Create a key for some of the namespaces the calling operator holds (404 for one it does not hold)."""
    row, secret = await auth.create_key(graph, principal, role=body.role, namespaces=list(body.namespaces))
    return KeyCreated(id=row["id"], key=secret, role=row["role"], namespaces=row["namespaces"])


@router.get("", response_model=KeyList, responses=error_responses(401, 403, 503))
async def list_keys(graph: GraphDep, principal: Operator, include_revoked: bool = True) -> KeyList:
    """The keys whose every namespace the caller holds, oldest first. Never a secret or a hash."""
    rows = await auth.list_keys(graph, principal, include_revoked=include_revoked)
    return KeyList(items=[KeyPublic.model_validate(r) for r in rows])


@router.delete("/{key_id}", response_model=KeyPublic, responses=error_responses(401, 403, 404, 503))
async def revoke_key(key_id: KeyId, request: Request, graph: GraphDep, principal: Operator) -> KeyPublic:
    """Revoke a key. Immediate in this process; other service processes stop accepting it within the key
    cache TTL (5 s by default)."""
    row = await auth.revoke_key(graph, principal, key_id, get_authenticator(request))
    return KeyPublic.model_validate(row)


@whoami_router.get("/whoami", response_model=WhoAmI, responses=error_responses(401, 503))
async def whoami(principal: PrincipalDep) -> WhoAmI:
    """The calling key: its id (the audit trail's actor), role and namespaces. Any role."""
    return WhoAmI.model_validate({"key_id": principal.key_id, "role": principal.role,
                                  "namespaces": list(principal.namespaces)})


ROUTERS = (router, whoami_router)
