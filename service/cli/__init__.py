"""`cognition`: serve the API, drive the managed local Neo4j, apply the schema."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable

import cypher
from graph.schema import apply_schema
from service import neo4j_local
from service.cli import audit, digest, export, keys, portability
from service.cli.common import ensure_neo4j, instance, with_graph
from service.settings import Settings


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    settings = Settings()
    workers = args.workers or settings.workers
    started = ensure_neo4j(settings, args.instance)
    try:
        print(f"[cognition] Neo4j at {settings.neo4j_uri}; API on http://{settings.host}:{settings.port}"
              f"{f' ({workers} workers)' if workers > 1 else ''} (Ctrl-C stops both)", file=sys.stderr, flush=True)
        # The app writes its own JSON request log (route templates, never paths with ids or query text).
        if workers == 1:
            from service.http.app import create_app  # the server's modules load only for the commands that serve

            uvicorn.run(create_app(settings), host=settings.host, port=settings.port, log_level="info",
                        access_log=False)
        else:
            # uvicorn's workers share the port; each is a process of its own that makes the app from the
            # environment (service.http.app.create_app with no settings), so the managed Neo4j this command may
            # have started is passed on there, and the schema is applied once here rather than by each worker.
            os.environ.update(NEO4J_URI=settings.neo4j_uri or "", NEO4J_PASSWORD=settings.neo4j_password or "")
            if settings.apply_schema_on_start:
                with_graph(args, lambda g: apply_schema(g, guard=settings.scope_guard))
            uvicorn.run("service.http.app:create_app", factory=True, workers=workers, host=settings.host,
                        port=settings.port, log_level="info", access_log=False)
    finally:
        if started and not args.keep_neo4j:
            neo4j_local.stop(instance(args.instance))
    return 0


def cmd_mcp(args: argparse.Namespace) -> int:
    """The MCP server over stdio (service/mcp/stdio.py); the key from COGNITION_API_KEY."""
    from service.mcp import stdio

    secret = os.environ.get(stdio.KEY_ENV)
    if not secret:
        print(f"cognition mcp: set {stdio.KEY_ENV} to an API key (`cognition keys create`)", file=sys.stderr)
        return 2
    settings = Settings()
    started = ensure_neo4j(settings, args.instance)
    try:
        return asyncio.run(stdio.serve(settings, secret))
    finally:
        if started and not args.keep_neo4j:
            neo4j_local.stop(instance(args.instance))


def cmd_neo4j(args: argparse.Namespace) -> int:
    inst = instance(args.instance)
    if args.action == "start":
        neo4j_local.start(inst, fresh=args.fresh)
        print(f"Neo4j ({inst.name}) running: {inst.uri}  http://127.0.0.1:{inst.http_port}  user neo4j, "
              f"password in {inst.password_file if not os.environ.get('NEO4J_PASSWORD') else 'NEO4J_PASSWORD'}")
    elif args.action == "stop":
        print("stopped" if neo4j_local.stop(inst) else "not running")
    else:
        pid = neo4j_local.status(inst)
        print(f"running (pid {pid}) on {inst.uri}" if pid else "stopped")
        return 0 if pid else 3
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    guard = Settings().scope_guard
    report = with_graph(args, lambda g: apply_schema(g, rerun=args.rerun, guard=guard))
    print(f"schema version {report.version}; applied {report.applied or 'nothing new'}; "
          f"scope guard: {report.guard}" + (f" (triggers live: {', '.join(report.triggers)})" if report.triggers
                                             else " (no trigger: `cognition audit` checks what raw Cypher wrote)"))
    return 0


def cmd_cypher(args: argparse.Namespace) -> int:
    """A named query with its fragments substituted: what the service runs, ready to paste into Neo4j Browser."""
    try:
        text = cypher.compose(args.name)
    except (ValueError, FileNotFoundError) as exc:
        print(f"cognition: no query named {args.name!r} ({exc})", file=sys.stderr)
        return 2
    print(text)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cognition", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)

    def add(name: str, fn: Callable[[argparse.Namespace], int], help_: str) -> argparse.ArgumentParser:
        sp = sub.add_parser(name, help=help_)
        sp.set_defaults(fn=fn)
        sp.add_argument("--instance", choices=sorted(neo4j_local.INSTANCES), default="run",
                        help="which managed local Neo4j (ignored when NEO4J_URI is set)")
        return sp

    serve = add("serve", cmd_serve, "start Neo4j if needed, apply the schema, serve the API")
    serve.add_argument("--keep-neo4j", action="store_true", help="leave the local Neo4j running on exit")
    serve.add_argument("--workers", type=int, metavar="N", choices=range(1, 65),
                       help="worker processes sharing the port (default COGNITION_WORKERS, 1)")
    mcp = add("mcp", cmd_mcp, "the MCP server over stdio (key from COGNITION_API_KEY)")
    mcp.add_argument("--keep-neo4j", action="store_true", help="leave a local Neo4j it started running on exit")
    neo = add("neo4j", cmd_neo4j, "the managed local Neo4j: start | stop | status")
    neo.add_argument("action", choices=["start", "stop", "status"])
    neo.add_argument("--fresh", action="store_true", help="wipe the instance's data first")
    schema = add("schema", cmd_schema, "apply the schema and triggers")
    schema.add_argument("action", choices=["apply"])
    schema.add_argument("--rerun", action="store_true", help="re-run every migration (they are idempotent)")
    query = add("cypher", cmd_cypher, "print a named query (cypher/NAME.cypher) with its {{FRAGMENTS}} substituted, "
                                      "ready to paste into Neo4j Browser")
    query.add_argument("name", help="e.g. artifact/list, context/assemble, search/hybrid")
    for module in (digest, keys, portability, export, audit):
        module.register(add)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.fn(args))
    except neo4j_local.LocalNeo4jError as exc:
        print(f"cognition: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
