"""Access: who is calling (an API key), with which role, over which namespaces, and what each role may do.

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
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from graph import keys as repo
from graph.driver import Graph
from graph.errors import CognitionError, Forbidden, Invalid, NotFound

AGENT, OPERATOR, AUDITOR = "agent", "operator", "auditor"
ROLES = (AGENT, OPERATOR, AUDITOR)
ALL_NAMESPACES = "*"
KEY_CACHE_TTL = 5.0  # seconds; see the module docstring
_MAX_SECRET = 256


class Unauthenticated(CognitionError):
    """No key, an unknown key or a revoked key."""

    code = "unauthenticated"


class ForbiddenRole(Forbidden):
    """The key can see the scope or partition, but its role may not do this there."""

    code = "forbidden_role"


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


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def _principal(row: dict[str, Any]) -> Principal:
    return Principal(str(row["id"]), str(row["role"]), tuple(str(n) for n in row["namespaces"]))


# ---- who may do what on a scope it can see ------------------------------------------------------------------

class Operation(StrEnum):
    """What a caller asks to do, as the role rules see it (each adapter names the operation of each call)."""

    read = "read"  # load, list, search, context, history, views, export, whoami: every role
    write = "write"  # save, update, delete, restore, edges, working state, kernels, scopes: agents and operators
    approve = "approve"  # approve or reject a pending record: operators
    set_policy = "set_policy"  # a scope's write policy: operators
    run_passes = "run_passes"  # digest and GC passes: operators
    import_scope = "import_scope"  # a scope from a file: operators
    manage_keys = "manage_keys"  # create, list and revoke API keys: operators
    manage_webhooks = "manage_webhooks"  # register, list, delete and replay webhooks, read their deliveries: operators


ALL_ROLES = frozenset(ROLES)
WRITERS = frozenset({AGENT, OPERATOR})
OPERATORS = frozenset({OPERATOR})
ROLES_FOR: dict[Operation, frozenset[str]] = {
    Operation.read: ALL_ROLES, Operation.write: WRITERS, Operation.approve: OPERATORS,
    Operation.set_policy: OPERATORS, Operation.run_passes: OPERATORS, Operation.import_scope: OPERATORS,
    Operation.manage_keys: OPERATORS, Operation.manage_webhooks: OPERATORS,
}


def require(principal: Principal, operation: Operation) -> None:
    """403 `forbidden_role` when the key's role may not do `operation`."""
    require_role(principal, *sorted(ROLES_FOR[operation]))


def require_role(principal: Principal, *roles: str) -> None:
    if principal.role not in roles:
        raise ForbiddenRole(f"a key with role {principal.role!r} may not do this (needs {' or '.join(roles)})")


_ID = re.compile(r"^[A-Za-z0-9-]{1,64}$")


async def require_visible(auth: Authenticator, principal: Principal, param: str, value: str) -> str:
    """The tenant check of one scope or pass id (`param` is `scope_id` or `pass_id`): 404 `scope_not_found`
    (`pass_not_found`) when it does not exist or lives in a namespace the key does not hold; else its namespace.
    Every surface asks it (the HTTP guard, the MCP tools)."""
    what = param.removesuffix("_id")
    if not _ID.match(value):
        raise Invalid(f"{param}: not a {what} id", details={"field": param})
    namespace = await auth.namespace_of(param, value)
    if namespace is None or not principal.holds(namespace):
        raise NotFound(f"no {what} {value}", code=f"{what}_not_found")
    return namespace


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

    def cached(self, secret: str | None) -> Principal | None:
        """The key's principal when this process holds it verified and unexpired in its cache; None otherwise
        (unknown here, expired, revoked, malformed): no round trip, nothing raised. `authenticate` decides those."""
        if not secret or len(secret) > _MAX_SECRET:
            return None
        hit = self._keys.get(hash_secret(secret))
        if hit is None or hit[0] <= self.clock() or hit[1] is None or hit[1].get("revoked_at") is not None:
            return None
        return _principal(hit[1])

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
