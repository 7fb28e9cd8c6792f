"""Domain errors become HTTP answers here, in one place: JSON `{"code", "message", ...}`."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from graph.errors import CognitionError
from service.wire import headers_of, refusal_body, status_of

ERROR_SCHEMA = "#/components/schemas/ErrorBody"  # the OpenAPI document adds it (service/http/deps.py)


def error_response() -> dict[str, Any]:
    """A refusal in the OpenAPI document: the ErrorBody component, named rather than given as a `model` (FastAPI builds
    a validator for each route's response model each time it builds the route, which it does twice — at import, and
    again, lazily, on the first request that walks past it — for a refusal that only the document needs)."""
    return {"description": "refused; see `code`", "content": {"application/json": {"schema": {"$ref": ERROR_SCHEMA}}}}


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses=` entries for the error statuses a route can answer."""
    return {s: error_response() for s in statuses}


def _field_of(loc: tuple[Any, ...] | list[Any]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts) or "body"


_HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "request_too_large", 415: "unsupported_media_type"}
_log = logging.getLogger("cognition.errors")


def domain_response(exc: CognitionError) -> JSONResponse:
    """A domain refusal as it is answered, by the app's handler and by the direct save (service/http/direct.py)."""
    return JSONResponse(refusal_body(exc), status_code=status_of(exc), headers=headers_of(exc))


def install(app: FastAPI) -> None:
    @app.exception_handler(CognitionError)
    async def _domain(_: Request, exc: CognitionError) -> JSONResponse:
        return domain_response(exc)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        # The framework's own refusals (no such route, wrong method) in the same shape as ours.
        if exc.status_code == 400:  # a body the framework could not decode (e.g. not UTF-8): malformed JSON
            return JSONResponse({"code": "malformed_json", "message": "the body is not valid JSON", "field": "body"},
                                status_code=422)
        code = _HTTP_CODES.get(exc.status_code, "http_error")
        return JSONResponse({"code": code, "message": str(exc.detail)}, status_code=exc.status_code,
                            headers=exc.headers)

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, exc: Exception) -> JSONResponse:
        # A bug, not a refusal: logged with its traceback here, answered without any detail.
        _log.error("unhandled %s", type(exc).__name__, exc_info=exc)
        return JSONResponse({"code": "internal_error", "message": "internal error"}, status_code=500)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first: dict[str, Any] = (dict(errors[0]) if errors
                                 else {"loc": ("body",), "msg": "invalid request", "type": "value_error"})
        # A validator may name its own stable code (e.g. service_owned_field) in the error context.
        ctx = first.get("ctx") or {}
        code = ctx.get("code") if isinstance(ctx.get("code"), str) else None
        if first.get("type") == "json_invalid":
            code = "malformed_json"
        field = str(ctx["field"]) if isinstance(ctx.get("field"), str) else _field_of(first.get("loc", ()))
        if code == "malformed_json":
            field = "body"  # (its loc carries the character position, not a field)
        msg = str(first.get("msg", "invalid request"))
        return JSONResponse(
            {"code": code or "validation_error", "message": f"{field}: {msg}", "field": field,
             "errors": [{"field": _field_of(e.get("loc", ())), "message": str(e.get("msg")), "type": e.get("type")}
                        for e in errors[:20]]},
            status_code=422)
