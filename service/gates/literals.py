"""Necessary literals of a regular expression: a set of strings such that every match of the pattern contains at
least one of them. The threat scan (service/gates/threat.py) uses them as a prefilter: a pattern family whose
literals are all absent from a text cannot match anywhere in it, so its regex is not run at all — the same
answer, without trying ~70 alternatives at every character of a 10 KB text.

Read from Python's own parse tree (`re._parser`), conservatively: whatever the analysis does not understand
yields "no requirement" (the alternative is then always run), never a wrong requirement. Literals are lower-cased
for IGNORECASE patterns; `probe()` maps the few characters IGNORECASE matches beyond lower-casing (the dotless ı,
the long ſ, the Kelvin sign…) onto the letter they match, so `literal in probe(text)` holds wherever the pattern
could match its letters. tests/unit/test_threat_prefilter.py checks both against the full regex.
"""

from __future__ import annotations

import re
import re._constants as C  # noqa: N812 — the regex compiler's opcodes
import re._parser as P  # noqa: N812
from typing import Any

__all__ = ["CASE_FIXES", "necessary", "prefixes", "probe"]

# Characters that re.IGNORECASE matches to an ASCII letter or other literal character although str.casefold()
# leaves them different (exhaustively checked over every code point by the unit test), besides A-Z.
CASE_FIXES = str.maketrans({
    **{chr(c): chr(c + 32) for c in range(0x41, 0x5B)},
    "\u0130": "i",  # İ: its simple lower-case mapping is i
    "\u0131": "i",  # ı
    "\u017f": "s",  # ſ
    "\u212a": "k",  # Kelvin sign
    "\u212b": "å",  # Ångström sign
    "\u1e9e": "ß",  # capital sharp s
    "\u1c80": "в", "\u1c81": "д", "\u1c82": "о", "\u1c83": "с", "\u1c84": "т", "\u1c85": "т", "\u1c86": "ъ",
    "\u1c87": "ѣ", "\u1c88": "ꙋ",  # Cyrillic small-letter variants
    "\u03c2": "σ", "\u03d0": "β", "\u03d1": "θ", "\u03d5": "φ", "\u03d6": "π", "\u03f0": "κ", "\u03f1": "ρ",
    "\u03f5": "ε", "\u1fbe": "ι", "\u0345": "ι", "\u00b5": "μ",  # Greek variants
})

Need = frozenset[str] | None  # None: no requirement known (always run)
Needs = tuple[frozenset[str], ...]  # all of them: every match contains one string of each set
_ZERO_WIDTH = {C.AT, C.ASSERT, C.ASSERT_NOT}
_REPEATS = {C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT}


_FIXABLE = re.compile("[" + "".join(re.escape(chr(c)) for c in CASE_FIXES) + "]")


def probe(text: str) -> str:
    """The text as the literal check reads it (call on the casefolded text the patterns search). Translated only
    when it holds a character to fix: one character-class scan, where `translate` looks up every character. An
    ASCII text's only characters to fix are A-Z: `lower()` (in C, no scan first)."""
    if text.isascii():
        return text.lower()
    return text.translate(CASE_FIXES) if _FIXABLE.search(text) else text


def necessary(pattern: str, flags: int = 0) -> Needs:
    """Sets of strings such that every match of `pattern` contains one string of each set (empty: none known).
    Only the pattern's top-level sequence is read for the conjunction; nested groups give one set each."""
    fold = bool(flags & re.IGNORECASE)
    exact, _ = _seq(P.parse(pattern, flags), fold)
    if exact:
        return (frozenset([exact]),)
    needs = _conjunction(P.parse(pattern, flags), fold)
    # Most selective first: the scan stops at the first set absent from the text.
    return tuple(sorted(set(needs), key=_score, reverse=True))


def prefixes(pattern: str, flags: int = 0) -> frozenset[str] | None:
    """Strings one of which every match of `pattern` starts with (its first consuming item, when that is a
    literal or a choice of literals), or None. A search then only needs to try the positions where one occurs."""
    fold = bool(flags & re.IGNORECASE)
    run = ""
    for op, av in P.parse(pattern, flags):
        if op in _ZERO_WIDTH:
            continue
        e, need = _item(op, av, fold)
        if e is not None:
            run += e  # consecutive literals: one longer prefix
            continue
        if run:
            break
        return need if op in (C.BRANCH, C.IN) and need else None
    return frozenset([run]) if run else None


def _conjunction(items: Any, fold: bool) -> list[frozenset[str]]:
    out: list[frozenset[str]] = []
    run = ""
    for op, av in items:
        if op in _ZERO_WIDTH:
            continue
        e, need = _item(op, av, fold)
        if e is not None:
            run += e
            continue
        if run:
            out.append(frozenset([run]))
        run = ""
        if need:
            out.append(need)
    if run:
        out.append(frozenset([run]))
    return out


def _score(need: Need) -> tuple[int, int]:
    if not need:
        return (0, 0)
    return (min(len(s) for s in need), -len(need))  # longer literals first, then fewer of them


def _best(exact: str | None, need: Need) -> Need:
    if exact:
        return max([frozenset([exact]), need], key=_score) if need else frozenset([exact])
    return need or None


def _seq(items: Any, fold: bool) -> tuple[str | None, Need]:
    """(the one string the sequence always matches, or None; the best requirement found in it)."""
    candidates: list[Need] = []
    run = ""
    exact: str | None = ""
    for op, av in items:
        if op in _ZERO_WIDTH:
            continue  # consumes nothing: the text around it stays contiguous
        e, need = _item(op, av, fold)
        if e is not None:
            run += e
            if exact is not None:
                exact += e
            continue
        exact = None
        if run:
            candidates.append(frozenset([run]))
        run = ""
        candidates.append(need)
    if run:
        candidates.append(frozenset([run]))
    best = max(candidates, key=_score, default=None)
    return exact, (best or None)


def _item(op: Any, av: Any, fold: bool) -> tuple[str | None, Need]:
    if op is C.LITERAL:
        ch = chr(av)
        return (ch.lower().translate(CASE_FIXES) if fold else ch), None
    if op is C.SUBPATTERN:
        _group, add, delete, sub = av
        if (add | delete) & re.IGNORECASE:
            return None, None  # a local case flag: not analysed
        return _seq(sub, fold)
    if op is C.BRANCH:
        options = [_best(*_seq(sub, fold)) for sub in av[1]]
        if any(not o for o in options):
            return None, None
        exacts = [_seq(sub, fold)[0] for sub in av[1]]
        if len(set(exacts)) == 1 and exacts[0] is not None:
            return exacts[0], None
        return None, frozenset().union(*options)  # type: ignore[arg-type]
    if op in _REPEATS:
        low, high, sub = av
        if low == 0:
            return None, None
        e, need = _seq(sub, fold)
        if e is not None and low == high:
            return e * low, None
        return None, _best(e, need)
    if op is C.IN:
        chars = [chr(v) for o, v in av if o is C.LITERAL]
        if len(chars) == len(av) and 0 < len(chars) <= 4:
            chars = [c.lower().translate(CASE_FIXES) for c in chars] if fold else chars
            if len(set(chars)) == 1:
                return chars[0], None
            return None, frozenset(chars)
    return None, None
