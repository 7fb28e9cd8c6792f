"""`cognition keys create | list | revoke`: API keys, straight against the database (whoever can run this holds
the Neo4j credentials, so no API key is needed). A new key's secret is printed once; only its hash is stored."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from graph.errors import CognitionError
from service.cli.common import AddCommand, with_runtime
from service.usecases import keys
from service.usecases.access import ROLES
from service.usecases.runtime import Runtime


def register(add: AddCommand) -> None:
    command = add("keys", cmd_keys, "API keys: create | list | revoke")
    actions = command.add_subparsers(dest="keys_action", required=True)
    create = actions.add_parser("create", help="create a key and print its secret (once)")
    create.add_argument("--role", choices=ROLES, required=True)
    create.add_argument("--namespace", "-n", dest="namespaces", action="append", required=True, metavar="NS",
                        help="a namespace the key holds (repeat for more; '*' = every namespace)")
    listing = actions.add_parser("list", help="list keys (never secrets or hashes)")
    listing.add_argument("--active", action="store_true", help="leave out revoked keys")
    revoke = actions.add_parser("revoke", help="revoke a key (other service processes follow within 5 s)")
    revoke.add_argument("key_id")


def cmd_keys(args: argparse.Namespace) -> int:
    async def run(rt: Runtime) -> int:
        try:
            return await _ACTIONS[args.keys_action](rt, args)
        except CognitionError as exc:
            print(f"cognition keys: {exc.code}: {exc.message}", file=sys.stderr)
            return 1

    return with_runtime(args, run)


async def _create(rt: Runtime, args: argparse.Namespace) -> int:
    row, secret = await keys.create_key(rt, None, role=args.role, namespaces=args.namespaces)
    print(f"created {row['id']} (role {row['role']}, namespaces {', '.join(row['namespaces'])})")
    print("the key (shown this once; only its hash is stored):")
    print(secret)
    return 0


async def _list(rt: Runtime, args: argparse.Namespace) -> int:
    rows = await keys.list_keys(rt, None, include_revoked=not args.active)
    table = [("id", "role", "namespaces", "created", "revoked", "created by")]
    table += [(r["id"], r["role"], ",".join(r["namespaces"]), _at(r.get("created_at")), _at(r.get("revoked_at")),
               str(r.get("created_by") or "")) for r in rows]
    # Plain aligned columns (never truncated, easy to grep).
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    return 0


async def _revoke(rt: Runtime, args: argparse.Namespace) -> int:
    row = await keys.revoke_key(rt, None, args.key_id)
    print(f"revoked {row['id']} at {_at(row.get('revoked_at'))}")
    return 0


def _at(value: Any) -> str:
    return value.isoformat(timespec="seconds") if value is not None else ""


_ACTIONS = {"create": _create, "list": _list, "revoke": _revoke}
