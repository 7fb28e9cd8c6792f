"""The synchronous client is generated from the asynchronous one: a hand edit of sync.py, or an edit of aio.py
without `make client-sync`, fails here."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _generator():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("client_sync", ROOT / "scripts" / "client_sync.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_sync_py_is_what_the_generator_makes_of_aio_py() -> None:
    gen = _generator()
    assert gen.TARGET.read_text(encoding="utf-8") == gen.generate(gen.SOURCE.read_text(encoding="utf-8")), \
        "cognition/client/sync.py is stale or edited by hand: run `make client-sync`"


def test_the_generated_client_has_no_async_left_and_the_same_resources() -> None:
    gen = _generator()
    tree = ast.parse(gen.TARGET.read_text(encoding="utf-8"))
    asynchronous = (ast.AsyncFunctionDef, ast.Await, ast.AsyncFor, ast.AsyncWith)
    assert not [n for n in ast.walk(tree) if isinstance(n, asynchronous)]
    from cognition.client import AsyncCognition, Cognition

    def public(cls: type) -> set[str]:
        return {n for n in dir(cls) if not n.startswith("_")}

    assert public(Cognition) == public(AsyncCognition)
    assert Cognition.__enter__ and Cognition.__exit__ and AsyncCognition.__aenter__ and AsyncCognition.__aexit__
