"""Webhooks: an operator registers an endpoint for a namespace's feed; a delivery worker in every replica leases
due webhooks and posts their next events (service/http/deliveries.py). The outbox is the feed itself — each event
committed with its change — plus the webhook's cursor, kept in Neo4j, so nothing is lost across restarts and a
replay is a cursor moved back."""

from __future__ import annotations

import base64
import secrets
import uuid
from typing import Any

from graph import webhooks as repo
from graph.errors import NotFound
from service.usecases import events
from service.usecases.access import ALL_NAMESPACES, Principal, require_namespace
from service.usecases.runtime import Runtime

Row = dict[str, Any]


def new_secret() -> str:
    """A Standard Webhooks secret: `whsec_` + base64 of 32 random bytes (the HMAC key is those bytes)."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


async def create(rt: Runtime, *, namespace: str, url: str, kinds: list[str] | None, after: int | None,
                 actor: str) -> tuple[Row, str]:
    """(the webhook, its secret: answered once)."""
    secret = new_secret()
    row = await rt.graph.write(repo.create, id=uuid.uuid4().hex, namespace=namespace, url=url,
                               kinds=sorted(set(kinds)) if kinds else None, secret=secret, after=after,
                               now=rt.clock(), actor=actor, batch=events.SEQUENCE_BATCH)
    return row, secret


async def list_webhooks(rt: Runtime, principal: Principal) -> list[Row]:
    held = None if ALL_NAMESPACES in principal.namespaces else list(principal.namespaces)
    return await rt.graph.read(repo.list_, namespaces=held)


def _found(row: Row | None, id: str, principal: Principal) -> Row:
    if row is None:
        raise NotFound(f"no webhook {id}", code="webhook_not_found")
    require_namespace(principal, str(row["namespace"]))
    return row


async def get(rt: Runtime, principal: Principal, id: str) -> Row:
    return _found(await rt.graph.read(repo.get, id=id), id, principal)


async def delete(rt: Runtime, principal: Principal, id: str) -> Row:
    await get(rt, principal, id)
    return _found(await rt.graph.write(repo.delete, id=id), id, principal)


async def replay(rt: Runtime, principal: Principal, id: str, *, after: int) -> Row:
    await get(rt, principal, id)
    return _found(await rt.graph.write(repo.replay, id=id, after=after, now=rt.clock()), id, principal)


async def deliveries(rt: Runtime, principal: Principal, id: str, *, limit: int = 100) -> list[Row]:
    await get(rt, principal, id)
    return await rt.graph.read(repo.deliveries, id=id, limit=limit)
