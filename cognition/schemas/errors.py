"""The one shape of every refusal."""

from __future__ import annotations

from pydantic import BaseModel


class ErrorBody(BaseModel):
    """Every refusal has this shape; `code` is stable and machine-readable."""

    code: str
    message: str
    field: str | None = None
