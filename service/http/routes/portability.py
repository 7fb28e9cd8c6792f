"""`GET /v1/scopes/{id}/export` (a streamed `.cogx.jsonl` file) and `POST /v1/scopes/import` (operators; the body
is the file, streamed to a temporary file first, so the manifest is checked before anything is written)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from typing import IO, Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import StreamingResponse

from cognition.schemas.scopes import IDENT_PATTERN, ImportOutcome
from service.http.deps import ActorDep, RuntimeDep
from service.http.errors import error_responses
from service.http.routes.scopes import ScopeId
from service.usecases.portability import peers
from service.usecases.portability.export import export_scope
from service.usecases.portability.importer import Target, import_scope
from service.wire import PayloadTooLarge

router = APIRouter(prefix="/v1/scopes", tags=["portability"])
IdentQuery = Query(min_length=1, max_length=128, pattern=IDENT_PATTERN)

MEDIA_TYPE = "application/x-ndjson"
UNBUFFERED = frozenset({("POST", "/v1/scopes/import")})  # service/http/limits.py leaves this body to the route
DEFAULT_MAX_IMPORT_BYTES = 1024 * 1024 * 1024  # COGNITION_MAX_IMPORT_BYTES
_CHUNK = 1024 * 1024


@router.get("/{scope_id}/export", responses={200: {"content": {MEDIA_TYPE: {}},
                                                   "description": "one JSON object per line, manifest last"},
                                             **error_responses(404, 422, 503)})
async def export(scope_id: ScopeId, rt: RuntimeDep,
                 include: Annotated[list[Literal["working_state"]] | None, Query()] = None) -> StreamingResponse:
    """Everything the scope owns, one JSON object per line in a fixed order, then a manifest (counts, format
    version, SHA-256 of the lines before it). Working state only with `?include=working_state`."""
    lines = await export_scope(rt, scope_id, working_state="working_state" in (include or []))
    return StreamingResponse(lines, media_type=MEDIA_TYPE,
                             headers={"content-disposition": f'attachment; filename="{scope_id}.cogx.jsonl"'})


def _chunks(spool: IO[bytes]) -> Iterator[bytes]:
    spool.seek(0)
    while chunk := spool.read(_CHUNK):
        yield chunk


@router.post("/import", status_code=201, response_model=ImportOutcome, response_model_exclude_none=True,
             openapi_extra={"requestBody": {"required": True, "content": {MEDIA_TYPE: {"schema": {"type": "string"}},
                                                                           "application/json": {"schema": {}}}}},
             responses=error_responses(404, 409, 413, 422, 503))
async def import_(request: Request, rt: RuntimeDep, actor: ActorDep, namespace: Annotated[str, IdentQuery],
                  cognitive_owner: Annotated[str | None, IdentQuery] = None,
                  name: Annotated[str | None, Query(max_length=200)] = None,
                  keep_ids: bool = False, id_map: bool = False,
                  format: Literal["cognition", "mem0", "mcp-neo4j-memory"] = "cognition") -> Any:
    """Create a new scope from an export (`format=cognition`, the default) or from a peer's file (`mem0`: the
    memories JSON of `get_all`; `mcp-neo4j-memory`: the `read_graph` JSON). The file is checked whole before
    anything is written (422 `import_manifest_invalid`, `import_checksum_mismatch`, `import_line_invalid`, or the
    write gates' codes); then one transaction writes it. `id_map=true` answers the old → new id mapping."""
    limit = int(os.environ.get("COGNITION_MAX_IMPORT_BYTES", DEFAULT_MAX_IMPORT_BYTES))
    with tempfile.SpooledTemporaryFile(max_size=8 * _CHUNK) as spool:
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise PayloadTooLarge(f"the import is larger than {limit} bytes")
            spool.write(chunk)
        chunks: Iterator[bytes] = _chunks(spool)
        if format != "cognition":
            chunks = iter([peers.convert(format, b"".join(chunks), cognitive_owner=cognitive_owner, name=name)])
        out = await import_scope(rt, chunks, Target(namespace, cognitive_owner, name, keep_ids), actor=actor)
    return {"scope": out.scope, "counts": out.counts, "id_map": out.id_map if id_map else None}
