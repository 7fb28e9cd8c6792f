"""Domain errors become HTTP answers here, in one place: JSON `{"code", "message", ...}`."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from graph.errors import CognitionError


class ErrorBody(BaseModel):
    """Every refusal has this shape; `code` is stable and machine-readable."""

    code: str
    message: str
    field: str | None = None


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses=` entries for the error statuses a route can answer."""
    return {s: {"model": ErrorBody, "description": "refused; see `code`"} for s in statuses}


def _field_of(loc: tuple[Any, ...] | list[Any]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts) or "body"


def install(app: FastAPI) -> None:
    @app.exception_handler(CognitionError)
    async def _domain(_: Request, exc: CognitionError) -> JSONResponse:
        body: dict[str, Any] = {"code": exc.code, "message": exc.message, **exc.details}
        return JSONResponse(body, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first = errors[0] if errors else {"loc": ("body",), "msg": "invalid request", "type": "value_error"}
        # A validator may name its own stable code (e.g. service_owned_field) in the error context.
        ctx = first.get("ctx") or {}
        code = ctx.get("code") if isinstance(ctx.get("code"), str) else None
        if first.get("type") == "json_invalid":
            code = "malformed_json"
        field = str(ctx["field"]) if isinstance(ctx.get("field"), str) else _field_of(first.get("loc", ()))
        msg = str(first.get("msg", "invalid request"))
        return JSONResponse(
            {"code": code or "validation_error", "message": f"{field}: {msg}", "field": field,
             "errors": [{"field": _field_of(e.get("loc", ())), "message": str(e.get("msg")), "type": e.get("type")}
                        for e in errors[:20]]},
            status_code=422)
