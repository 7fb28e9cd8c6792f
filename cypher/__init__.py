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
def fragment(name: str) -> str:
    """`cypher/fragments/<name>.cypher` without its comments. An expression fragment (the default) comes back
    parenthesised so it composes inside AND / OR / arithmetic; one whose header says `// kind: clauses` comes
    back as it is. Fragments may use other fragments."""
    if not (ROOT / "fragments" / f"{name.lower()}.cypher").exists():
        raise ValueError(f"unknown Cypher fragment {{{{{name}}}}}")
    text = load(f"fragments/{name.lower()}")
    body = _substitute("\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith("//")).strip())
    return body if "// kind: clauses" in text else f"({body})"


def _substitute(text: str) -> str:
    # Comment lines are left alone: a fragment spans lines and would escape its `//`.
    return "\n".join(line if line.lstrip().startswith("//") else _FRAGMENT.sub(lambda m: fragment(m.group(1)), line)
                     for line in text.splitlines())


@cache
def compose(name: str) -> str:
    """A named query with every `{{FRAGMENT}}` replaced by `cypher/fragments/<fragment>.cypher`, once, at load
    time. Cypher in Community has no user-defined functions, so a shared predicate, score or ranking lives in
    one file and is substituted where queries name it (kept visible to the planner, unlike APOC custom
    functions). Names are checked by the regex above and must name an existing fragment file."""
    return _substitute(load(name))


def compose_text(text: str) -> str:
    """Cypher text (not a named file) with its `{{FRAGMENT}}`s substituted: for raw writes that must state a
    rule as the service does (bench fills, tests)."""
    return _substitute(text)


def statements(text: str) -> list[str]:
    """Split a schema file into statements on `;` at line ends, dropping `//` comment lines; `{{FRAGMENT}}`s are
    substituted as in a query (a data migration states a rule once, where the queries read it)."""
    body = "\n".join(line for line in _substitute(text).splitlines() if not line.lstrip().startswith("//"))
    return [s.strip() for s in re.split(r";\s*(?:\n|$)", body) if s.strip()]
