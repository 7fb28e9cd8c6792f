"""`cognition export scope ID`, `cognition import FILE` (with a progress bar), `cognition backup` and
`cognition restore FILE` (the managed local Neo4j, offline)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from graph.errors import CognitionError
from service import neo4j_local
from service.cli.common import AddCommand, with_runtime
from service.settings import Settings
from service.usecases.portability import peers
from service.usecases.portability.export import export_scope
from service.usecases.portability.importer import Outcome, Target, import_scope
from service.usecases.runtime import Runtime

console = Console(stderr=True)


def _fail(exc: CognitionError) -> int:
    console.print(f"[red]refused[/red] {exc.code}: {exc.message}")
    return 1


def cmd_export(args: argparse.Namespace) -> int:
    async def run(rt: Runtime) -> int:
        out = open(args.out, "wb") if args.out else sys.stdout.buffer  # noqa: SIM115 (closed below)
        try:
            lines = await export_scope(rt, args.id, working_state="working_state" in (args.include or []))
            async for line in lines:
                out.write(line)
        finally:
            if args.out:
                out.close()
            else:
                out.flush()
        return 0

    try:
        return with_runtime(args, run)
    except CognitionError as exc:
        return _fail(exc)


def _file_chunks(path: Path) -> Iterator[bytes]:
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            yield chunk


def cmd_import(args: argparse.Namespace) -> int:
    path = Path(args.file)
    chunks: Iterator[bytes] = _file_chunks(path)
    target = Target(args.namespace, args.owner, args.name, args.keep_ids)
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), console=console) as bar:
        task = bar.add_task(f"import {path.name} into {args.namespace}", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=max(total, 1))

        try:
            if args.format != "cognition":
                chunks = iter([peers.convert(args.format, path.read_bytes(), name=args.name,
                                             cognitive_owner=args.owner)])
            out: Outcome = with_runtime(args, lambda rt: import_scope(rt, chunks, target, actor=f"cli:{args.actor}",
                                                                       progress=progress))
        except CognitionError as exc:
            return _fail(exc)
    print(json.dumps({"scope": out.scope, "counts": out.counts}, default=str, indent=2))
    if args.id_map:
        Path(args.id_map).write_text(json.dumps(out.id_map, indent=0, sort_keys=True))
    return 0


def _managed(args: argparse.Namespace) -> neo4j_local.LocalInstance | None:
    if Settings().neo4j_uri:
        console.print("NEO4J_URI is set: back up your own Neo4j on its server (`neo4j-admin database dump`), or "
                      "export scopes with `cognition export scope ID` (docs/portability.md)")
        return None
    return neo4j_local.INSTANCES[args.instance]


def cmd_backup(args: argparse.Namespace) -> int:
    inst = _managed(args)
    if inst is None:
        return 2
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    to = Path(args.to or f"cognition-{inst.name}-{stamp}.dump")
    path = neo4j_local.backup(inst, to)
    print(f"backed up the {inst.name} store to {path} ({path.stat().st_size} bytes)")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    inst = _managed(args)
    if inst is None:
        return 2
    neo4j_local.restore(inst, Path(args.file))
    print(f"restored the {inst.name} store from {args.file}")
    return 0


def register_export(what: Any) -> None:
    """`cognition export scope ID`: a sub-command of `cognition export` (service/cli/export.py owns the verb)."""
    e = what.add_parser("scope", help="one scope as .cogx.jsonl (stdout, or --out FILE)")
    e.set_defaults(fn=cmd_export)
    e.add_argument("id", help="the scope id")
    e.add_argument("--include", action="append", choices=["working_state"], help="also export working state")
    e.add_argument("--out", help="write here instead of stdout")


def register(add: AddCommand) -> None:
    i = add("import", cmd_import, "create a new scope from an export (or a peer's file, --format)")
    i.add_argument("file")
    i.add_argument("--namespace", required=True)
    i.add_argument("--owner", help="the cognitive owner (default: the file's own)")
    i.add_argument("--name", help="the new scope's name (default: the exported name)")
    i.add_argument("--keep-ids", action="store_true", help="keep the scope's and artifacts' ids (none may exist)")
    i.add_argument("--format", choices=["cognition", *peers.FORMATS], default="cognition")
    i.add_argument("--id-map", help="write the old → new id mapping (JSON) to this file")
    i.add_argument("--actor", default="operator")
    b = add("backup", cmd_backup, "offline dump of the managed local Neo4j (stops and restarts it)")
    b.add_argument("--to", help="the dump file (default: cognition-<instance>-<time>.dump)")
    r = add("restore", cmd_restore, "load a dump into the managed local Neo4j (replaces its data)")
    r.add_argument("file")
