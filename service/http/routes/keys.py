"""`/v1/keys`: API key management (operators only). A key's secret is answered once, at creation."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path

from cognition.schemas.scopes import KeyCreate, KeyCreated, KeyList, KeyPublic, WhoAmI
from service.http.deps import PrincipalDep, RuntimeDep
from service.http.errors import error_responses
from service.usecases import keys
from service.usecases.access import Operation, Principal, require

router = APIRouter(prefix="/v1/keys", tags=["keys"])
whoami_router = APIRouter(prefix="/v1", tags=["keys"])

KeyId = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9-]+$")]


async def _operator(principal: PrincipalDep) -> Principal:
    require(principal, Operation.manage_keys)
    return principal


Operator = Annotated[Principal, Depends(_operator)]


@router.post("", status_code=201, response_model=KeyCreated, responses=error_responses(401, 403, 404, 422, 503))
async def create_key(body: KeyCreate, rt: RuntimeDep, principal: Operator) -> KeyCreated:
    """Create a key for some of the namespaces the calling operator holds (404 for one it does not hold)."""
    row, secret = await keys.create_key(rt, principal, role=body.role, namespaces=list(body.namespaces))
    return KeyCreated(id=row["id"], key=secret, role=row["role"], namespaces=row["namespaces"])


@router.get("", response_model=KeyList, responses=error_responses(401, 403, 503))
async def list_keys(rt: RuntimeDep, principal: Operator, include_revoked: bool = True) -> KeyList:
    """The keys whose every namespace the caller holds, oldest first. Never a secret or a hash."""
    rows = await keys.list_keys(rt, principal, include_revoked=include_revoked)
    return KeyList(items=[KeyPublic.model_validate(r) for r in rows])


@router.delete("/{key_id}", response_model=KeyPublic, responses=error_responses(401, 403, 404, 503))
async def revoke_key(key_id: KeyId, rt: RuntimeDep, principal: Operator) -> KeyPublic:
    """Revoke a key. Immediate in this process; other service processes stop accepting it within the key
    cache TTL (5 s by default)."""
    row = await keys.revoke_key(rt, principal, key_id)
    return KeyPublic.model_validate(row)


@whoami_router.get("/whoami", response_model=WhoAmI, responses=error_responses(401, 503))
async def whoami(principal: PrincipalDep) -> WhoAmI:
    """The calling key: its id (the audit trail's actor), role and namespaces. Any role."""
    return WhoAmI.model_validate({"key_id": principal.key_id, "role": principal.role,
                                  "namespaces": list(principal.namespaces)})


ROUTERS = (router, whoami_router)
