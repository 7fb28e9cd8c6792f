"""The Cypher itself, as named `.cypher` files an analyst can paste into Neo4j Browser.

`load("scope/create")` returns the text of `cypher/scope/create.cypher`. Queries take `$parameters`
only; nothing is interpolated into them.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).parent
_NAME = re.compile(r"^[a-z0-9_]+(/[a-z0-9_]+)*$")


@cache
def load(name: str) -> str:
    """The text of a named query (`family/name`), cached after the first read."""
    if not _NAME.match(name):
        raise ValueError(f"not a query name: {name!r}")
    return (ROOT / f"{name}.cypher").read_text(encoding="utf-8")


_FRAGMENT = re.compile(r"\{\{([A-Z_]+)\}\}")


@cache
def compose(name: str) -> str:
    """A named query with every `{{FRAGMENT}}` replaced by `cypher/fragments/<fragment>.cypher` (an expression,
    parenthesised). Cypher in Community has no user-defined functions, so a shared predicate or score lives
    in one file and is substituted, once, at load time. Fragment names are checked by the regex above."""

    def one(m: re.Match[str]) -> str:
        body = "\n".join(ln for ln in load(f"fragments/{m.group(1).lower()}").splitlines()
                         if not ln.lstrip().startswith("//"))
        return f"({body.strip()})"

    # Comment lines are left alone: a fragment spans lines and would escape its `//`.
    return "\n".join(line if line.lstrip().startswith("//") else _FRAGMENT.sub(one, line)
                     for line in load(name).splitlines())


def statements(text: str) -> list[str]:
    """Split a schema file into statements on `;` at line ends, dropping `//` comment lines."""
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
    return [s.strip() for s in re.split(r";\s*(?:\n|$)", body) if s.strip()]
