"""The direct single save: `POST /v1/scopes/{scope_id}/<family>` served without FastAPI's routing,
dependency solving and response-model validation, about a quarter of the served process's CPU a
save (docs/benchmarks.md).

It does what the route does, with the route's own functions and in the same order: the guard's checks
(`service.http.deps.check_access`, as `authorize` runs them), the body validated by the route's model, the save and
its answer (`service.http.routes.artifacts.save_single`), the answer serialized by the route's response model, a
domain refusal answered by the app's own handler (`service.http.errors.domain_response`), the request logged and
timed under the route's template. Every guarantee of the save is in `service.usecases.artifacts.save`, which both
paths call.

Whatever it cannot prove plain it hands, untouched and with its body replayed, to the FastAPI route, which answers
it as before: another content type, a query string, an `Idempotency-Key`, no or an unknown key, a scope the key
may not see, a role that may not save, a namespace the key does not hold, a body that is not a JSON object or does
not validate. Those checks write nothing, so running them twice for such a request changes nothing.
`tests/integration/test_direct_save.py` holds both paths to the same answers."""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import TypeAdapter
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cognition.schemas.records import ArtifactPublic
from graph.errors import CognitionError
from service.http.deps import check_access, operation_of
from service.http.errors import domain_response
from service.http.routes.artifacts import SINGLE_SAVES, SingleSave, save_single
from service.usecases.access import Authenticator, Principal
from service.wire import bearer

_PATH = re.compile(r"^/v1/scopes/([A-Za-z0-9-]{1,64})/([a-z-]+)$")
_RECORD: TypeAdapter[Any] = TypeAdapter(ArtifactPublic)  # the save routes' response model


class _Fallback(Exception):
    """Not a plain single save: the FastAPI route answers it."""


class DirectSave:
    """ASGI middleware, innermost of the app's own (inside the request observer and the body limit)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope.get("query_string"):
            await self.app(scope, receive, send)
            return
        m = _PATH.match(scope["path"])
        target = SINGLE_SAVES.get(m.group(2)) if m else None
        if m is None or target is None:
            await self.app(scope, receive, send)
            return
        messages, body = await _read_body(receive)

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        try:
            principal, namespace, record_in = await _plain(scope, m.group(1), target, body)
        except _Fallback:
            await self.app(scope, replay, send)
            return
        scope.setdefault("state", {})["key_id"] = principal.key_id  # for the request log, as get_principal does
        app = scope["app"]
        try:
            # The rate limit, as `authorize` takes it, once the request is known to be a plain save.
            app.state.runtime.limiter.take(principal.key_id, namespace, operation_of("POST", target.route.path))
            record, headers = await save_single(app.state.runtime, m.group(1), record_in, principal)
        except CognitionError as exc:
            await domain_response(exc)(scope, replay, send)
            return
        out = _RECORD.dump_json(record, by_alias=True)
        raw = [(b"content-length", str(len(out)).encode()), (b"content-type", b"application/json"),
               *((k.lower().encode(), v.encode()) for k, v in headers.items())]
        await send({"type": "http.response.start", "status": 201, "headers": raw})
        await send({"type": "http.response.body", "body": out})


async def _plain(scope: Scope, scope_id: str, target: SingleSave, body: bytes | None
                 ) -> tuple[Principal, str | None, Any]:
    """The caller, the namespace it acts in and the validated body of a plain single save; `_Fallback` for anything
    else."""
    headers = _headers(scope)
    if body is None or "idempotency-key" in headers:
        raise _Fallback
    if headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise _Fallback
    auth: Authenticator = scope["app"].state.runtime.auth
    try:
        principal = await auth.authenticate(bearer(headers.get("authorization")))
        data = json.loads(body)
        if not isinstance(data, dict):
            raise _Fallback
        namespace = await check_access(auth, principal, method="POST", template=target.route.path,
                                       path_params={"scope_id": scope_id}, named=[data.get("namespace")])
        record_in = target.model.model_validate(data)
    except (CognitionError, ValueError) as exc:  # ValueError: not UTF-8, not JSON, or a ValidationError
        raise _Fallback from exc
    scope["route"] = target.route
    return principal, namespace, record_in


def _headers(scope: Scope) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, value in scope["headers"]:
        out.setdefault(name.decode("latin-1"), value.decode("latin-1"))  # the first of repeated names, as Starlette
    return out


async def _read_body(receive: Receive) -> tuple[list[Message], bytes | None]:
    """The request's messages (to replay them) and its whole body; None for the body when the client went away."""
    messages: list[Message] = []
    chunks: list[bytes] = []
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            return messages, None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return messages, b"".join(chunks)
