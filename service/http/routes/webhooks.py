"""`/v1/webhooks`: register, list and delete a namespace's webhooks, read a webhook's delivery log and replay its
events from a cursor (operators). A webhook's secret is answered once, at registration."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from cognition.schemas.events import (
    DeliveryList,
    DeliveryPublic,
    WebhookCreate,
    WebhookCreated,
    WebhookList,
    WebhookPublic,
    WebhookReplay,
)
from service.http.deps import ActorDep, PrincipalDep, RuntimeDep
from service.http.errors import error_responses
from service.usecases import webhooks as use
from service.wire import event_cursor, event_position

router = APIRouter(prefix="/v1/webhooks", tags=["webhooks"])

WebhookId = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9-]+$")]


def _public(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "cursor": event_cursor(str(row["namespace"]), int(row["cursor"]))}


@router.post("", status_code=201, response_model=WebhookCreated,
             responses=error_responses(401, 403, 404, 422, 503))
async def create_webhook(body: WebhookCreate, rt: RuntimeDep, actor: ActorDep) -> WebhookCreated:
    """Register an endpoint for the namespace's events (of `kinds`, or all). Deliveries start after `after`, or
    with the events that follow the registration. The `secret` signing them is in this answer only."""
    after = event_position(body.namespace, body.after) if body.after else None
    row, secret = await use.create(rt, namespace=body.namespace, url=str(body.url),
                                   kinds=list(body.kinds) if body.kinds else None, after=after, actor=actor)
    return WebhookCreated.model_validate({**_public(row), "secret": secret})


@router.get("", response_model=WebhookList, responses=error_responses(401, 403, 503))
async def list_webhooks(rt: RuntimeDep, principal: PrincipalDep) -> WebhookList:
    """The webhooks of the namespaces the key holds, oldest first. Never a secret."""
    rows = await use.list_webhooks(rt, principal)
    return WebhookList(items=[WebhookPublic.model_validate(_public(r)) for r in rows])


@router.get("/{webhook_id}", response_model=WebhookPublic, responses=error_responses(401, 403, 404, 503))
async def get_webhook(webhook_id: WebhookId, rt: RuntimeDep, principal: PrincipalDep) -> WebhookPublic:
    return WebhookPublic.model_validate(_public(await use.get(rt, principal, webhook_id)))


@router.delete("/{webhook_id}", response_model=WebhookPublic, responses=error_responses(401, 403, 404, 503))
async def delete_webhook(webhook_id: WebhookId, rt: RuntimeDep, principal: PrincipalDep) -> WebhookPublic:
    """Delete the webhook and its delivery log; nothing more is sent to it."""
    return WebhookPublic.model_validate(_public(await use.delete(rt, principal, webhook_id)))


@router.post("/{webhook_id}/replay", response_model=WebhookPublic,
             responses=error_responses(401, 403, 404, 422, 503))
async def replay_webhook(webhook_id: WebhookId, body: WebhookReplay, rt: RuntimeDep,
                         principal: PrincipalDep) -> WebhookPublic:
    """Deliver again every event after the cursor `after` (of the webhook's namespace), in order, from the next
    attempt on; failures and backoff are reset."""
    hook = await use.get(rt, principal, webhook_id)
    after = event_position(str(hook["namespace"]), body.after)
    return WebhookPublic.model_validate(_public(await use.replay(rt, principal, webhook_id, after=after)))


@router.get("/{webhook_id}/deliveries", response_model=DeliveryList, responses=error_responses(401, 403, 404, 503))
async def list_deliveries(webhook_id: WebhookId, rt: RuntimeDep, principal: PrincipalDep,
                          limit: Annotated[int, Query(ge=1, le=1000)] = 100) -> DeliveryList:
    """The webhook's delivery attempts, newest first: the receiver's status or the error, the event positions."""
    rows = await use.deliveries(rt, principal, webhook_id, limit=limit)
    return DeliveryList(items=[DeliveryPublic.model_validate({**r, "webhook_id": webhook_id}) for r in rows])
