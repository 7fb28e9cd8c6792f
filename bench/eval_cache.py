"""An on-disk memo of an embedder's vectors, for repeated evaluation runs only (bench/eval_recall.py).

Embedding 2,760 turns with a CPU model takes minutes on a loaded machine; the evaluation measures ranking,
so a second run reuses the vectors of the first. The wrapper is still called through the service's own save
and search paths; only the model call is memoised, keyed by role and text. Cache files live in
`.cognition/eval-cache/` (git-ignored) and never hold anything but vectors keyed by a hash of the text.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from service.search.embedding import Embedder, query_vectors

CACHE_DIR = Path(__file__).resolve().parent.parent / ".cognition" / "eval-cache"


def _key(role: str, text: str) -> str:
    return hashlib.sha256(f"{role}\0{text}".encode()).hexdigest()[:32]


class CachedEmbedder:
    """Wraps an embedder; same name, dimensions, roles and calibration."""

    def __init__(self, inner: Embedder, cache_dir: Path = CACHE_DIR) -> None:
        self.inner = inner
        self.name = inner.name
        self.dimensions = inner.dimensions
        self.min_cosine = getattr(inner, "min_cosine", None)
        if self.min_cosine is None:
            del self.min_cosine
        self._path = cache_dir / f"{inner.name}.npz"
        self._memo: dict[str, np.ndarray[Any, Any]] = {}
        self._dirty = False
        if self._path.exists():
            with np.load(self._path) as data:
                self._memo = dict(zip(data["keys"].tolist(), data["vectors"], strict=True))

    def _get(self, role: str, texts: Sequence[str]) -> list[list[float]]:
        keys = [_key(role, t) for t in texts]
        todo = [i for i, k in enumerate(keys) if k not in self._memo]
        if todo:
            fresh = [texts[i] for i in todo]
            vecs = self.inner.embed(fresh) if role == "passage" else query_vectors(self.inner, fresh)
            for i, v in zip(todo, vecs, strict=True):
                self._memo[keys[i]] = np.asarray(v, dtype=np.float32)
            self._dirty = True
        return [[float(x) for x in self._memo[k]] for k in keys]

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self._get("passage", texts)

    def embed_query(self, texts: Sequence[str]) -> list[list[float]]:
        return self._get("query", texts)

    def save(self) -> None:
        if not self._dirty:
            return
        self._path.parent.mkdir(parents=True, exist_ok=True)
        keys = list(self._memo)
        tmp = self._path.with_suffix(".tmp.npz")
        np.savez(tmp, keys=np.array(keys), vectors=np.stack([self._memo[k] for k in keys]))
        tmp.replace(self._path)
        self._dirty = False
