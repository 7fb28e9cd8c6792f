"""A text's NFKC + casefold forms, computed once per text for both the threat scan (service/gates/threat.py, the
whole text) and the learned detector (service/gates/detector.py, its first HEAD and last TAIL characters).

NFKC is the costly part of both (a Chinese 10 KB text: ~1 ms, its full-width punctuation defeats the quick
check). A long text is normalised in three pieces, cut where the detector's window is cut, when the character
after each cut is *inert*: ASCII or a CJK unified ideograph — a starter (combining class 0) without a
decomposition that is the second half of no canonical composition. Nothing composes or reorders across such a
character, so NFKC of the whole is the concatenation of the pieces' NFKC (and the detector's window, whose joining
"\\n" is ASCII too, the concatenation of the first and last piece); casefold maps character by character.
tests/unit/test_scan_equivalence.py checks the inert set against every code point's decomposition and both
forms against a direct normalisation. Any other cut: the text and the window are normalised on their own.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

__all__ = ["HEAD", "TAIL", "Normal", "inert", "normalize", "window"]

HEAD, TAIL = 4000, 1000  # the detector reads a long text's first HEAD and last TAIL characters


def inert(ch: str) -> bool:
    """Whether NFKC(a + ch + b) == NFKC(a) + NFKC(ch + b) for every a and b (see the module's docstring)."""
    return ch < "\x80" or "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf"


# Full-width ASCII forms and the ideographic space (Chinese text's punctuation: one "，" fails NFKC's quick check,
# and the full normalisation that follows costs ~0.2 µs a character) are first replaced by their one-character
# compatibility decomposition. NFKD decomposes character by character and then reorders marks, so a character and
# its full decomposition give the same NFKD inside any text, hence the same NFKC (tests/unit/test_scan_equivalence
# checks each entry's decomposition). One `str.replace` per distinct such character present (at most 95 passes
# in C; `translate` looks up every character of the text in a dict, slower than the normalisation it saves).
_WIDE = {chr(cp): unicodedata.normalize("NFKD", chr(cp)) for cp in (*range(0xFF01, 0xFF5F), 0x3000)}
_WIDE_FORMS = re.compile("[\uff01-\uff5e\u3000]")


def _nf(text: str) -> str:
    if not unicodedata.is_normalized("NFKC", text):
        for ch in set(_WIDE_FORMS.findall(text)):
            text = text.replace(ch, _WIDE[ch])
        text = unicodedata.normalize("NFKC", text)
    return text.casefold()


def window(text: str) -> str:
    """What the detector reads: NFKC + casefold of `text`, or of its first HEAD and last TAIL characters joined
    by a line break when it is longer."""
    if len(text) > HEAD + TAIL:
        text = text[:HEAD] + "\n" + text[-TAIL:]
    return _nf(text)


@dataclass(frozen=True, slots=True)
class Normal:
    text: str  # the raw text
    nfkc: str  # NFKC + casefold of all of it (what the threat scan folds)
    _window: str | None  # window(text) when it came with nfkc, else None (computed on demand)

    def window(self) -> str:
        return window(self.text) if self._window is None else self._window


def normalize(text: str) -> Normal:
    n = len(text)
    if n <= HEAD + TAIL:
        nfkc = _nf(text)
        return Normal(text, nfkc, nfkc)
    if inert(text[HEAD]) and inert(text[n - TAIL]):
        head, middle, tail = _nf(text[:HEAD]), _nf(text[HEAD:n - TAIL]), _nf(text[n - TAIL:])
        return Normal(text, head + middle + tail, head + "\n" + tail)
    return Normal(text, _nf(text), None)
