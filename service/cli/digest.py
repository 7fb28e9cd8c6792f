"""`cognition digest run` (with a progress bar) and `cognition explain ID`."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from service.cli.common import AddCommand, with_runtime
from service.http.browser_guide import link_for
from service.neo4j_local import INSTANCES
from service.settings import Settings
from service.usecases import passes
from service.usecases.runtime import Runtime

console = Console()


def _run_with_progress(args: argparse.Namespace, title: str,
                       run: Callable[[Runtime, Callable[[int, int], None]], Awaitable[dict[str, Any]]]) -> int:
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), console=console) as bar:
        task = bar.add_task(title, total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=max(total, 1))

        out: dict[str, Any] = with_runtime(args, lambda rt: run(rt, progress))
    p = out["pass"]
    table = Table(title=f"pass {p['id'] or '(dry run)'} — {p['phase']} — {p['state']}")
    for col in ("action", "rule", "artifact", "cites"):
        table.add_column(col)
    for d in out["decisions"][: args.show]:
        table.add_row(d["action"], d["rule"], d["artifact_id"], ", ".join(d["cites"] or []))
    console.print(table)
    console.print(f"{len(out['decisions'])} decision(s)")
    return 0


def _as_of(args: argparse.Namespace) -> datetime | None:
    return datetime.fromisoformat(args.as_of) if args.as_of else None


def cmd_digest(args: argparse.Namespace) -> int:
    return _run_with_progress(
        args, f"digest {args.phase} pass on {args.namespace}/{args.owner}",
        lambda rt, progress: passes.run_digest(rt, namespace=args.namespace, cognitive_owner=args.owner,
                                               phases=[args.phase], actor=f"cli:{args.actor}", dry_run=args.dry_run,
                                               as_of=_as_of(args), progress=progress))


def cmd_gc(args: argparse.Namespace) -> int:
    return _run_with_progress(
        args, f"gc {args.phase} pass on {args.namespace}/{args.owner}",
        lambda rt, progress: passes.run_gc(rt, namespace=args.namespace, cognitive_owner=args.owner,
                                           actor=f"cli:{args.actor}", phases=[args.phase], dry_run=args.dry_run,
                                           as_of=_as_of(args), max_entries=args.max_entries, progress=progress))


def cmd_explain(args: argparse.Namespace) -> int:
    why = with_runtime(args, lambda rt: passes.explain(rt, args.id))
    settings = Settings()
    settings.neo4j_uri = settings.neo4j_uri or INSTANCES[args.instance].uri  # the server `with_runtime` used
    why.browser_link = link_for(settings, why.id)
    print(json.dumps(why.model_dump(mode="json"), indent=2, ensure_ascii=False))
    print(f"Open in Neo4j Browser (the decision graph): {why.browser_link}", file=sys.stderr)
    return 0


def register(add: AddCommand) -> None:
    for name, fn, help_ in (("digest", cmd_digest, "run a digest pass over one partition"),
                            ("gc", cmd_gc, "run a GC pass (TTL, capacity eviction) over one partition")):
        d = add(name, fn, help_)
        d.add_argument("action", choices=["run"])
        d.add_argument("--namespace", required=True)
        d.add_argument("--owner", required=True, help="the cognitive owner")
        d.add_argument("--phase", choices=["archive", "remove"], default="archive")
        d.add_argument("--dry-run", action="store_true")
        d.add_argument("--as-of", help="dry runs: evaluate time-based rules at this ISO instant")
        d.add_argument("--actor", default="operator")
        d.add_argument("--show", type=int, default=50, help="decisions to print")
        if name == "gc":
            d.add_argument("--max-entries", type=int, help="override the configured per-partition maximum")
    e = add("explain", cmd_explain, "why was an artifact archived, removed or kept (typed answer)")
    e.add_argument("id")
