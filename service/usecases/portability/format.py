"""The scope export format (`.cogx.jsonl`): one JSON object per line, line types in a fixed order, each line's
keys sorted, and a last `manifest` line with counts per type, the format version and the SHA-256 of every byte
before it. Pure functions: encoding, decoding and the manifest check (nothing here touches Neo4j)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from graph.errors import Invalid

FORMAT = "cognition-scope"
VERSION = 1
# The order of line types in a file (the manifest is always last).
LINE_TYPES = ("scope", "write_policy", "artifact", "revision", "tombstone", "edge", "digest_pass", "decision",
              "event")
MANIFEST = "manifest"


class ImportRefused(Invalid):
    """A file that is not a whole, intact export: refused before anything is written."""

    def __init__(self, message: str, *, code: str, line: int | None = None) -> None:
        super().__init__(message, code=code, details={} if line is None else {"line": line})


def _default(value: Any) -> Any:
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    raise TypeError(f"not exportable: {type(value).__name__}")


def encode(obj: dict[str, Any]) -> bytes:
    """One line: sorted keys, no spaces, UTF-8 as is, temporal values as ISO-8601 text; ends with a newline."""
    return (json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_default)
            + "\n").encode("utf-8")


def is_temporal_key(key: str) -> bool:
    """Properties that are Neo4j datetimes in the graph (`at`, `*_at`, `*_until`, `valid_from`): text in the
    file."""
    return key in ("at", "valid_from") or key.endswith("_at") or key.endswith("_until")


def revive(props: dict[str, Any]) -> dict[str, Any]:
    """A line's properties made graph values again: ISO text under a temporal key becomes a datetime."""
    out: dict[str, Any] = {}
    for k, v in props.items():
        if isinstance(v, str) and is_temporal_key(k):
            try:
                out[k] = datetime.fromisoformat(v)
                continue
            except ValueError:
                pass
        out[k] = v
    return out


@dataclass
class Digest:
    """Counts and the running SHA-256 of the lines written so far (the manifest's content)."""

    sha: Any = field(default_factory=hashlib.sha256)
    counts: dict[str, int] = field(default_factory=lambda: {t: 0 for t in LINE_TYPES})

    def add(self, line_type: str, line: bytes) -> bytes:
        self.sha.update(line)
        self.counts[line_type] += 1
        return line

    def manifest(self) -> bytes:
        return encode({"type": MANIFEST, "format": FORMAT, "version": VERSION, "counts": self.counts,
                       "sha256": self.sha.hexdigest()})


@dataclass
class Parsed:
    """A verified file: its lines by type (file order) and its manifest."""

    lines: dict[str, list[dict[str, Any]]]
    manifest: dict[str, Any]

    @property
    def scope(self) -> dict[str, Any]:
        return self.lines["scope"][0]


def parse(chunks: Iterable[bytes]) -> Parsed:
    """Check a whole file before anything is written. The last line must be a manifest of this format and
    version, terminated by its newline (else the file was cut short); the SHA-256 of every byte before it must
    match (so one changed byte anywhere is `import_checksum_mismatch`); only then is each line read, and must be
    a JSON object of a known type, as many of each type as the manifest counts."""
    raw_lines: list[bytes] = []
    buffer = b""
    for chunk in chunks:
        buffer += chunk
        *complete, buffer = buffer.split(b"\n")
        raw_lines.extend(complete)
    if buffer.strip() or not raw_lines:
        raise ImportRefused("the file does not end with a manifest line: a truncated file or not a Cognition "
                            "export", code="import_manifest_invalid")
    try:
        manifest = json.loads(raw_lines[-1])
    except (ValueError, UnicodeDecodeError):
        manifest = None
    if not isinstance(manifest, dict) or manifest.get("type") != MANIFEST:
        raise ImportRefused("the last line is not a manifest: a truncated file or not a Cognition export",
                            code="import_manifest_invalid", line=len(raw_lines))
    if manifest.get("format") != FORMAT or manifest.get("version") != VERSION:
        raise ImportRefused(f"format {manifest.get('format')!r} version {manifest.get('version')!r}: this service "
                            f"reads {FORMAT} version {VERSION}", code="import_manifest_invalid",
                            line=len(raw_lines))
    if encode(manifest) != raw_lines[-1] + b"\n" or set(manifest) != {"type", "format", "version", "counts", "sha256"}:
        # The manifest is written in the canonical form (sorted keys, no spaces), so a changed byte in it shows.
        raise ImportRefused("the manifest line was changed (it is not in the form an export writes)",
                            code="import_manifest_invalid", line=len(raw_lines))
    sha = hashlib.sha256()
    for raw in raw_lines[:-1]:
        sha.update(raw + b"\n")
    if manifest.get("sha256") != sha.hexdigest():
        raise ImportRefused("the file's SHA-256 does not match its manifest: the file was changed or damaged",
                            code="import_checksum_mismatch")
    lines: dict[str, list[dict[str, Any]]] = {t: [] for t in LINE_TYPES}
    for number, raw in enumerate(raw_lines[:-1], start=1):
        try:
            obj = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            raise ImportRefused(f"line {number} is not JSON", code="import_line_invalid", line=number) from exc
        kind = obj.get("type") if isinstance(obj, dict) else None
        if kind not in lines:
            raise ImportRefused(f"line {number}: unknown line type {kind!r}", code="import_line_invalid",
                                line=number)
        lines[kind].append(obj)
    _check_manifest(manifest, lines)
    return Parsed(lines, manifest)


def _check_manifest(manifest: dict[str, Any], lines: dict[str, list[dict[str, Any]]]) -> None:
    counts = manifest.get("counts")
    if not isinstance(counts, dict) or set(counts) != set(LINE_TYPES) \
            or any(counts[t] != len(v) for t, v in lines.items()):
        raise ImportRefused("the manifest's counts do not match the lines in the file",
                            code="import_manifest_invalid")
    if len(lines["scope"]) != 1:
        raise ImportRefused("an export holds exactly one scope line", code="import_manifest_invalid")
    if len(lines["write_policy"]) > 1:
        raise ImportRefused("an export holds at most one write_policy line", code="import_manifest_invalid")


def build(objects: Iterable[tuple[str, dict[str, Any]]]) -> bytes:
    """A complete file from (line type, fields) pairs, put in file order (line types in their order, each type's
    lines as given); used by the peer importers."""
    digest = Digest()
    out = bytearray()
    for line_type, obj in sorted(objects, key=lambda pair: LINE_TYPES.index(pair[0])):
        out += digest.add(line_type, encode({"type": line_type, **obj}))
    out += digest.manifest()
    return bytes(out)
