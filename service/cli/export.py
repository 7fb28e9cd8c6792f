"""`cognition export graph --scope ID --view lineage|refgraph|decisions --format graphml|node-link > file`:
a scope's graph for networkx, straight against the database like the other operator commands (whoever can
run this holds the Neo4j credentials). The same use case as `GET /v1/scopes/{id}/graph`."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from graph.errors import CognitionError
from service.cli import portability
from service.cli.common import AddCommand, with_runtime
from service.usecases import graph_export as use
from service.usecases.runtime import Runtime


def register(add: AddCommand) -> None:
    export = add("export", cmd_export, "export a scope's graph (lineage, refgraph, decisions) for networkx")
    what = export.add_subparsers(dest="export_what", required=True)
    portability.register_export(what)  # `cognition export scope ID`
    graph = what.add_parser("graph", help="GraphML or node-link JSON on stdout (or --output)")
    graph.add_argument("--scope", required=True, help="the scope id")
    graph.add_argument("--view", choices=use.VIEWS, default="refgraph")
    graph.add_argument("--format", choices=use.FORMATS, default="graphml")
    graph.add_argument("--max-nodes", type=int, default=use.MAX_NODES,
                       help=f"refuse above this many nodes (default {use.MAX_NODES}, at most {use.HARD_MAX_NODES})")
    graph.add_argument("--content", action="store_true", help="include the text fields (content, steps, …)")
    graph.add_argument("--output", "-o", help="write here instead of stdout")


def cmd_export(args: argparse.Namespace) -> int:
    async def run(rt: Runtime) -> Any:
        try:
            return await use.export_graph(rt, args.scope, args.view, max_nodes=args.max_nodes,
                                          content=args.content)
        except CognitionError as exc:
            return exc

    out = with_runtime(args, run)
    if isinstance(out, CognitionError):
        print(f"cognition export: {out.code}: {out.message}", file=sys.stderr)
        return 1
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            _write(out, args.format, f)
    else:
        _write(out, args.format, sys.stdout)
    return 0


def _write(g: Any, fmt: str, stream: TextIO) -> None:
    for chunk in use.serialise(g, fmt):
        stream.write(chunk)
    if fmt == "node-link":
        stream.write("\n")
    stream.flush()
