"""API keys: who is calling, with which role, over which namespaces.

A key's secret is `cog_` + 43 URL-safe characters: 256 bits from the OS CSPRNG. Only its SHA-256 is stored.
Why a plain, unsalted hash is enough here: passwords need slow salted hashes (bcrypt, argon2) because people
pick them from spaces small enough to enumerate; a 256-bit random secret cannot be enumerated or found in a
dictionary, so a fast hash loses nothing — and it lets a request be verified by one indexed equality match,
and cached by hash in this process.

Roles:
- `agent`    reads and writes the scopes of its namespaces;
- `operator` also digest, GC, approvals, write policies and key management;
- `auditor`  reads only (artifacts, history, views, decisions).

Two in-process caches keep verification off the request's round trip:
- verified keys, by hash, for `KEY_CACHE_TTL` seconds (default 5, `COGNITION_KEY_CACHE_TTL`): a revoke made
  through this process takes effect at once, one made elsewhere within the TTL;
- scope id (and digest / GC pass id) → namespace, without expiry (LRU-bounded): a scope's or pass's
  namespace is fixed when it is created and ids are never reused, so the answer cannot go stale.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from graph import keys as repo
from graph.driver import Graph
from graph.errors import CognitionError, Invalid, NotFound

AGENT, OPERATOR, AUDITOR = "agent", "operator", "auditor"
ROLES = (AGENT, OPERATOR, AUDITOR)
ALL_NAMESPACES = "*"
KEY_CACHE_TTL = 5.0  # seconds; see the module docstring
KEY_PREFIX = "cog_"
NAMESPACE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$")  # the alphabet scopes accept
_MAX_SECRET = 256


class Unauthenticated(CognitionError):
    """No key, an unknown key or a revoked key: 401, with the scheme a client should use."""

    code, status = "unauthenticated", 401
    headers = {"WWW-Authenticate": "Bearer"}


class ForbiddenRole(CognitionError):
    """The key can see the scope or partition, but its role may not do this there."""

    code, status = "forbidden_role", 403


@dataclass(frozen=True, slots=True)
class Principal:
    """The verified caller: a key id (the audit trail's actor), a role and the namespaces it holds."""

    key_id: str
    role: str
    namespaces: tuple[str, ...]

    def holds(self, namespace: str) -> bool:
        return ALL_NAMESPACES in self.namespaces or namespace in self.namespaces

    def holds_all(self, namespaces: Iterable[str]) -> bool:
        if ALL_NAMESPACES in self.namespaces:
            return True
        return all(ns != ALL_NAMESPACES and ns in self.namespaces for ns in namespaces)


def new_secret() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def new_key_id() -> str:
    return "key-" + secrets.token_hex(8)


def _now() -> datetime:
    return datetime.now(UTC)


def _principal(row: dict[str, Any]) -> Principal:
    return Principal(str(row["id"]), str(row["role"]), tuple(str(n) for n in row["namespaces"]))


# ---- who may do what on a scope it can see ------------------------------------------------------------------

ALL_ROLES = frozenset(ROLES)
WRITERS = frozenset({AGENT, OPERATOR})
OPERATORS = frozenset({OPERATOR})
_WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# First match wins, on (method, route path template). Anything not listed: GET/HEAD/OPTIONS for every role,
# other methods for agents and operators. Routes added later are covered by the default.
_RULES: tuple[tuple[frozenset[str], re.Pattern[str], frozenset[str]], ...] = (
    (_WRITE_METHODS | {"GET", "HEAD"}, re.compile(r"^/v1/keys(/|$)"), OPERATORS),
    (frozenset({"POST"}), re.compile(r"/(approve|reject)$"), OPERATORS),
    (frozenset({"POST"}), re.compile(r"^/v1/scopes/import$"), OPERATORS),
    (_WRITE_METHODS, re.compile(r"/write-policy$"), OPERATORS),
    (_WRITE_METHODS, re.compile(r"/(digest|gc)(/|$)"), OPERATORS),
    (frozenset({"POST"}), re.compile(r"/(search|context|why)$"), ALL_ROLES),  # reads sent as POST
)


def roles_for(method: str, path_template: str) -> frozenset[str]:
    for methods, pattern, roles in _RULES:
        if method in methods and pattern.search(path_template):
            return roles
    return WRITERS if method in _WRITE_METHODS else ALL_ROLES


def require_role(principal: Principal, *roles: str) -> None:
    if principal.role not in roles:
        raise ForbiddenRole(f"a key with role {principal.role!r} may not do this (needs {' or '.join(roles)})")


def require_namespace(principal: Principal, namespace: str) -> None:
    """404, never 403: a key must not learn that a namespace it does not hold exists."""
    if not principal.holds(namespace):
        raise NotFound(f"no namespace {namespace!r}", code="namespace_not_found")


# ---- verification, with the two caches --------------------------------------------------------------------------

class Authenticator:
    """Verifies keys and answers scope → namespace, caching both (see the module docstring)."""

    def __init__(self, graph: Graph, *, ttl: float = KEY_CACHE_TTL, max_keys: int = 10_000,
                 max_scopes: int = 100_000, clock: Callable[[], float] = time.monotonic) -> None:
        self.graph = graph
        self.ttl = ttl
        self.max_keys = max_keys
        self.max_scopes = max_scopes
        self.clock = clock
        # hash → (expires at, the key's row or None when unknown). Unknown and revoked keys are cached too,
        # so a client retrying with a bad key does not cost a round trip each time.
        self._keys: dict[str, tuple[float, dict[str, Any] | None]] = {}
        self._scopes: OrderedDict[tuple[str, str], str] = OrderedDict()

    async def authenticate(self, secret: str | None) -> Principal:
        if not secret:
            raise Unauthenticated("send an API key: `Authorization: Bearer <key>`", code="unauthenticated")
        if len(secret) > _MAX_SECRET:
            raise Unauthenticated("unknown API key")
        key_hash = hash_secret(secret)
        now = self.clock()
        hit = self._keys.get(key_hash)
        if hit is not None and hit[0] > now:
            row = hit[1]
        else:
            row = await self.graph.read(repo.by_hash, key_hash)  # Unavailable (503) when Neo4j is down
            if len(self._keys) >= self.max_keys:
                self._evict(now)
            self._keys[key_hash] = (now + self.ttl, row)
        if row is None:
            raise Unauthenticated("unknown API key")
        if row.get("revoked_at") is not None:
            raise Unauthenticated("this API key was revoked")
        return _principal(row)

    def _evict(self, now: float) -> None:
        for h in [h for h, (exp, _) in self._keys.items() if exp <= now]:
            del self._keys[h]
        while len(self._keys) >= self.max_keys:
            self._keys.pop(next(iter(self._keys)))

    def forget_key(self, key_id: str) -> None:
        """Drop a key from the cache (after revoking it here), so the revoke is immediate in this process."""
        for h in [h for h, (_, row) in self._keys.items() if row is not None and row.get("id") == key_id]:
            del self._keys[h]

    async def scope_namespace(self, scope_id: str) -> str | None:
        return await self.namespace_of("scope_id", scope_id)

    async def namespace_of(self, param: str, id: str) -> str | None:
        """The namespace of the scope or pass a path parameter names (graph/keys.py NAMESPACE_OF)."""
        ns = self._scopes.get((param, id))
        if ns is not None:
            self._scopes.move_to_end((param, id))
            return ns
        ns = await self.graph.read(repo.namespace_of, param, id)
        if ns is not None:  # never cache a miss: the id may name something created a moment later elsewhere
            self._scopes[(param, id)] = ns
            if len(self._scopes) > self.max_scopes:
                self._scopes.popitem(last=False)
        return ns


# ---- key management use cases ------------------------------------------------------------------------------------

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


async def create_key(graph: Graph, principal: Principal | None, *, role: str,
                     namespaces: list[str]) -> tuple[dict[str, Any], str]:
    """(the key's public row, its secret). The secret is returned once and never stored."""
    grant = check_grant(principal, role, namespaces)
    secret = new_secret()
    row = await graph.write(repo.create, id=new_key_id(), key_hash=hash_secret(secret), role=role,
                            namespaces=grant, now=_now(), created_by=principal.key_id if principal else "cli")
    return row, secret


def _visible(principal: Principal | None, row: dict[str, Any]) -> bool:
    return principal is None or principal.holds_all(row["namespaces"])


async def list_keys(graph: Graph, principal: Principal | None, *, include_revoked: bool = True) -> list[dict[str, Any]]:
    """The keys whose every namespace the caller holds (all of them for a `*` operator or the CLI)."""
    rows = await graph.read(repo.list_all, include_revoked=include_revoked)
    return [r for r in rows if _visible(principal, r)]


async def revoke_key(graph: Graph, principal: Principal | None, key_id: str,
                     auth: Authenticator | None = None) -> dict[str, Any]:
    row = await graph.read(repo.get, key_id)
    if row is None or not _visible(principal, row):
        raise NotFound(f"no key {key_id}", code="key_not_found")
    revoked = await graph.write(repo.revoke, id=key_id, now=_now(),
                                revoked_by=principal.key_id if principal else "cli")
    if revoked is None:
        raise NotFound(f"no key {key_id}", code="key_not_found")
    if auth is not None:
        auth.forget_key(key_id)
    return revoked


async def ensure_first_key(graph: Graph, bootstrap_secret: str | None) -> str | None:
    """Make sure an operator can get in. With COGNITION_BOOTSTRAP_KEY set, install it (once) as an operator
    key holding every namespace. Otherwise, when the store has never had a key, generate one and return its
    secret so the caller can print it — the only time it is shown. Returns None when nothing was generated."""
    if bootstrap_secret:
        if len(bootstrap_secret) < 16:
            raise CognitionError("COGNITION_BOOTSTRAP_KEY must be at least 16 characters", code="weak_bootstrap_key")
        await graph.write(repo.install_bootstrap, id=new_key_id(), key_hash=hash_secret(bootstrap_secret),
                          now=_now())
        return None
    secret = new_secret()
    row = await graph.write(repo.generate_first, id=new_key_id(), key_hash=hash_secret(secret), now=_now())
    return secret if row is not None else None
