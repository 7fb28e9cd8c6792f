"""`cognition audit [--json] [--examples N]`: every scope invariant checked over the whole database (cross-scope
relationships, artifacts without a scope, scopes without exactly one kernel of each kind), under either scope
guard. Exit 0 when nothing is found, 1 when something is (each finding listed), as a cron job or CI step wants.
Straight against the database, like `cognition schema`: whoever runs it holds the Neo4j credentials."""

from __future__ import annotations

import argparse
import json
from typing import Any

from graph import audit as repo
from graph.driver import Graph
from service.cli.common import AddCommand, with_graph


def register(add: AddCommand) -> None:
    audit = add("audit", cmd_audit, "check every scope invariant over the whole database (exit 1 on a finding)")
    audit.add_argument("--json", action="store_true", help="one JSON document on stdout")
    audit.add_argument("--examples", type=int, default=20, metavar="N", help="findings listed per check (20)")


def cmd_audit(args: argparse.Namespace) -> int:
    async def run(graph: Graph) -> list[dict[str, Any]]:
        return await graph.read(repo.audit, examples=max(0, args.examples))

    checks = with_graph(args, run)
    found = sum(int(c["found"]) for c in checks)
    if args.json:
        print(json.dumps({"ok": found == 0, "checks": checks}, indent=2, default=str))
    else:
        for c in checks:
            print(f"{c['check']}: {c['found']}")
            for e in c["examples"]:
                print("    " + ", ".join(f"{k}={v}" for k, v in e.items()))
        print("ok: every scope invariant holds" if found == 0 else f"{found} finding(s)")
    return 0 if found == 0 else 1
