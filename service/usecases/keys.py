"""API key management: create, list and revoke keys, and the first operator key of an empty store. A key's
secret is `cog_` + 43 URL-safe characters (256 bits from the OS CSPRNG), shown once; only its SHA-256 is stored
(service/usecases/access.py says why a plain hash is enough)."""

from __future__ import annotations

import re
import secrets
from typing import Any

from graph import keys as repo
from graph.errors import CognitionError, Invalid, NotFound
from service.usecases.access import ALL_NAMESPACES, ROLES, Principal, hash_secret
from service.usecases.runtime import Runtime

KEY_PREFIX = "cog_"
NAMESPACE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$")  # the alphabet scopes accept


def new_secret() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


def new_key_id() -> str:
    return "key-" + secrets.token_hex(8)


def check_grant(principal: Principal | None, role: str, namespaces: list[str]) -> list[str]:
    """Validate a key's role and namespaces; a creating key may only grant namespaces it holds itself
    (404 for one it does not hold, as everywhere). `principal` None = the CLI (direct database access)."""
    if role not in ROLES:
        raise Invalid(f"role must be one of {', '.join(ROLES)}", details={"field": "role"})
    if not namespaces:
        raise Invalid("a key holds at least one namespace", details={"field": "namespaces"})
    out: list[str] = []
    for ns in namespaces:
        if ns != ALL_NAMESPACES and not NAMESPACE_RE.match(ns):
            raise Invalid(f"not a namespace: {ns!r}", details={"field": "namespaces"})
        if principal is not None and not principal.holds_all([ns]):
            raise NotFound(f"no namespace {ns!r}", code="namespace_not_found")
        if ns not in out:
            out.append(ns)
    return [ALL_NAMESPACES] if ALL_NAMESPACES in out else out


async def create_key(rt: Runtime, principal: Principal | None, *, role: str,
                     namespaces: list[str]) -> tuple[dict[str, Any], str]:
    """(the key's public row, its secret). The secret is returned once and never stored."""
    grant = check_grant(principal, role, namespaces)
    secret = new_secret()
    row = await rt.graph.write(repo.create, id=new_key_id(), key_hash=hash_secret(secret), role=role,
                               namespaces=grant, now=rt.clock(), created_by=principal.key_id if principal else "cli")
    return row, secret


def _visible(principal: Principal | None, row: dict[str, Any]) -> bool:
    return principal is None or principal.holds_all(row["namespaces"])


async def list_keys(rt: Runtime, principal: Principal | None, *,
                    include_revoked: bool = True) -> list[dict[str, Any]]:
    """The keys whose every namespace the caller holds (all of them for a `*` operator or the CLI)."""
    rows = await rt.graph.read(repo.list_all, include_revoked=include_revoked)
    return [r for r in rows if _visible(principal, r)]


async def revoke_key(rt: Runtime, principal: Principal | None, key_id: str) -> dict[str, Any]:
    """Revoke a key: at once in this process (its key cache forgets it), within the cache TTL in others."""
    row = await rt.graph.read(repo.get, key_id)
    if row is None or not _visible(principal, row):
        raise NotFound(f"no key {key_id}", code="key_not_found")
    revoked = await rt.graph.write(repo.revoke, id=key_id, now=rt.clock(),
                                   revoked_by=principal.key_id if principal else "cli")
    if revoked is None:
        raise NotFound(f"no key {key_id}", code="key_not_found")
    rt.auth.forget_key(key_id)
    return revoked


async def ensure_first_key(rt: Runtime, bootstrap_secret: str | None) -> str | None:
    """Make sure an operator can get in. With COGNITION_BOOTSTRAP_KEY set, install it (once) as an operator
    key holding every namespace. Otherwise, when the store has never had a key, generate one and return its
    secret so the caller can print it — the only time it is shown. Returns None when nothing was generated."""
    if bootstrap_secret:
        if len(bootstrap_secret) < 16:
            raise CognitionError("COGNITION_BOOTSTRAP_KEY must be at least 16 characters", code="weak_bootstrap_key")
        await rt.graph.write(repo.install_bootstrap, id=new_key_id(), key_hash=hash_secret(bootstrap_secret),
                             now=rt.clock())
        return None
    secret = new_secret()
    row = await rt.graph.write(repo.generate_first, id=new_key_id(), key_hash=hash_secret(secret), now=rt.clock())
    return secret if row is not None else None
