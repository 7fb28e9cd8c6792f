"""How LangGraph's store maps onto Cognition (docs/langgraph.md), as pure functions: TTLs onto tiers, LangGraph's
namespace rules and match conditions, its filter semantics, keys, subjects and values."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from typing import Any

from langgraph.store.base import (
    GetOp,
    InvalidNamespaceError,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    SearchItem,
    SearchOp,
)

Namespace = tuple[str, ...]

# A record's content when no text of its value is indexed: the analyzers make no token of it, so no query finds it.
UNINDEXED = "∅"
# The service's default tier TTLs (COGNITION GC settings), in minutes: a TTL maps to the shortest tier that keeps the
# item at least that long; longer, or none, is `role` (no TTL).
TIER_MINUTES: tuple[tuple[str, float], ...] = (("session", 24 * 60.0), ("working", 7 * 24 * 60.0),
                                               ("agent", 30 * 24 * 60.0))
MAX_SCOPE_NAME = 200  # cognition.schemas.scopes.ScopeCreate.name
MAX_KEY = 512  # service/http/routes/keyed.py
MAX_SUBJECT = 200
CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def tier_for_ttl(ttl: float | None) -> str:
    """The tier a LangGraph TTL (minutes) maps to."""
    if ttl is None:
        return "role"
    for tier, minutes in TIER_MINUTES:
        if ttl <= minutes:
            return tier
    return "role"


# ---- namespaces --------------------------------------------------------------------------------------------------

def validate(op: Op) -> None:
    """LangGraph's label rules for ops handed to `batch` directly (BaseStore's methods check them before): a label is
    a non-empty string without "." or NUL, so a scope name reads back as the namespace it was made from."""
    if isinstance(op, (GetOp, PutOp)):
        paths: list[tuple[str, ...]] = [op.namespace]
    elif isinstance(op, SearchOp):
        paths = [op.namespace_prefix]
    elif isinstance(op, ListNamespacesOp):
        paths = [tuple(c.path) for c in op.match_conditions or ()]
    else:
        paths = []
    for path in paths:
        for label in path:
            if not isinstance(label, str) or not label or "." in label or "\x00" in label:
                raise InvalidNamespaceError(f"invalid namespace label {label!r} in {path}: labels are non-empty "
                                            "strings without '.' or NUL")


def does_match(condition: MatchCondition, ns: Namespace) -> bool:
    """LangGraph's namespace match: a prefix or suffix path, `*` matching any one label."""
    path = tuple(condition.path)
    if len(ns) < len(path):
        return False
    pairs = zip(ns, path, strict=False) if condition.match_type == "prefix" else zip(reversed(ns), reversed(path),
                                                                                       strict=False)
    return all(p == "*" or n == p for n, p in pairs)


def literal_head(path: Iterable[str]) -> tuple[str, ...]:
    out: list[str] = []
    for label in path:
        if label == "*":
            break
        out.append(label)
    return tuple(out)


# ---- filters (LangGraph's semantics: equality, nested maps, lists, and $eq $ne $gt $gte $lt $lte) -----------------

def matches(value: dict[str, Any], flt: dict[str, Any] | None) -> bool:
    return not flt or all(_compare(value.get(k), v) for k, v in flt.items())


def _compare(item: Any, wanted: Any) -> bool:
    if isinstance(wanted, dict):
        if any(k.startswith("$") for k in wanted):
            return all(_operator(item, op, arg) for op, arg in wanted.items())
        return isinstance(item, dict) and all(_compare(item.get(k), v) for k, v in wanted.items())
    if isinstance(wanted, (list, tuple)):
        return (isinstance(item, (list, tuple)) and len(item) == len(wanted)
                and all(_compare(i, w) for i, w in zip(item, wanted, strict=True)))
    return bool(item == wanted)


def _operator(value: Any, op: str, arg: Any) -> bool:
    if op == "$eq":
        return bool(value == arg)
    if op == "$ne":
        return bool(value != arg)
    if op in ("$gt", "$gte", "$lt", "$lte"):
        a, b = float(value), float(arg)
        return {"$gt": a > b, "$gte": a >= b, "$lt": a < b, "$lte": a <= b}[op]
    raise ValueError(f"unsupported filter operator {op!r} (use $eq, $ne, $gt, $gte, $lt, $lte)")


# ---- keys and values ---------------------------------------------------------------------------------------------

def text_leaves(value: Any) -> list[str]:
    """The strings of a value, depth first in its own order: what the whole value (`$`) indexes. Not its JSON: keys,
    braces and quotes are not what a user says, and they read to the injection detector as code or markup."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in text_leaves(v)]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in text_leaves(v)]
    return []


def valid_key(key: str) -> bool:
    return 0 < len(key) <= MAX_KEY and not CONTROL.search(key)


def subject(key: str) -> str:
    """The record's subject is its key (records of one scope with one subject are about one thing: supersession never
    joins two keys); a long key by its hash."""
    if len(key) <= MAX_SUBJECT and key.strip():
        return key
    return "sha256:" + hashlib.sha256(key.encode()).hexdigest()


def value_of(record: Any) -> dict[str, Any]:
    value = (record.metadata or {}).get("value")
    return value if isinstance(value, dict) else {"content": record.content}


def search_item(record: Any, ns: Namespace, value: dict[str, Any], score: float | None) -> SearchItem:
    return SearchItem(namespace=ns, key=record.key or "", value=value, created_at=record.created_at,
                      updated_at=record.updated_at, score=score)

