"""A single save is one auto-commit transaction (one round trip, issue 18), so a connection lost after the query
was sent leaves it unknown whether it committed — the case a managed transaction only meets during COMMIT.
`Graph.write_once` settles it from the save's own ids before retrying. Tested with real faults: a Bolt proxy on
loopback between the driver and Neo4j that loses the connection either after the server's committed answer (the
save must answer from what committed, written once) or before the query reaches the server (the save must be
retried and written once). Also: the unit of work may not run a second query."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

import pytest
from neo4j import Driver

from cognition.schemas.records import MemoryCreate
from graph.driver import Graph, Neo4jConfig, OneQueryOnly
from service.usecases import artifacts as use
from service.usecases.drafts import draft_of
from service.usecases.runtime import Runtime


@dataclass
class BoltProxy:
    """Relays bytes both ways. Armed with a marker, it loses the connection that carries it: `after_commit` once
    the server's answer holding a bookmark (sent only after the commit) comes back — the answer is swallowed;
    `before_send` on the chunk holding the marker — the server never sees it."""
    upstream: tuple[str, int]
    marker: bytes = b""
    mode: str = ""
    dropped: int = 0
    writers: list[asyncio.StreamWriter] = field(default_factory=list)

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        self.writers += [writer, up_writer]
        carried = False

        def lose() -> None:
            self.dropped += 1
            self.marker = b""
            for w in (writer, up_writer):
                w.transport.abort()

        async def to_server() -> None:
            nonlocal carried
            while data := await reader.read(65536):
                if self.marker and self.marker in data:
                    if self.mode == "before_send":
                        return lose()
                    carried = True
                up_writer.write(data)
                await up_writer.drain()

        async def to_client() -> None:
            while data := await up_reader.read(65536):
                if carried and self.mode == "after_commit" and b"bookmark" in data:
                    return lose()
                writer.write(data)
                await writer.drain()

        with contextlib.suppress(ConnectionError, OSError):
            await asyncio.gather(to_server(), to_client())
        for w in (writer, up_writer):
            w.transport.abort()


@contextlib.asynccontextmanager
async def bolt_proxy(uri: str) -> AsyncIterator[tuple[BoltProxy, str]]:
    u = urlparse(uri)
    proxy = BoltProxy((u.hostname or "127.0.0.1", u.port or 7687))
    server = await asyncio.start_server(proxy.handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield proxy, f"bolt://127.0.0.1:{port}"
    finally:
        server.close()
        for w in proxy.writers:
            w.transport.abort()


def _saved(raw: Driver, marker: str) -> list[dict[str, Any]]:
    return [r.data() for r in raw.execute_query(
        "MATCH (a:Artifact) WHERE a.content CONTAINS $m "
        "RETURN a.id AS id, COUNT { (a)-[:HAS_REVISION]->() } AS revisions, "
        "COUNT { MATCH (e:Event {artifact_id: a.id, op: 'save'}) } AS events", m=marker).records]


@pytest.mark.parametrize("mode", ["after_commit", "before_send"])
def test_a_save_whose_connection_is_lost_is_written_once_and_answered(mode: str, neo4j_config: Neo4jConfig,
                                                                     scope: dict[str, Any], raw: Driver) -> None:
    marker = "qz" + uuid.uuid4().hex[:12]
    body = MemoryCreate(kind="fact", tier="agent", content=f"the spare key is under pot {marker}")  # type: ignore[arg-type]

    async def go() -> tuple[list[str], int]:
        async with bolt_proxy(neo4j_config.uri) as (proxy, uri):
            graph = Graph.connect(Neo4jConfig(uri, neo4j_config.user, neo4j_config.password, neo4j_config.database))
            try:
                await graph.ping()  # the pool holds a live connection: the fault hits the save, not the handshake
                proxy.marker, proxy.mode = marker.encode(), mode
                result = await use.save(Runtime(graph), scope["id"], [draft_of(body)], actor="test")
                return [a.id for a in result.items], proxy.dropped
            finally:
                await graph.close()

    ids, dropped = asyncio.run(go())
    assert dropped == 1  # the fault did happen
    saved = _saved(raw, marker)
    assert [s["id"] for s in saved] == ids  # written once, and the answer names what was written
    assert [(s["revisions"], s["events"]) for s in saved] == [(1, 1)]


def test_write_once_refuses_a_second_query(neo4j_config: Neo4jConfig) -> None:
    async def two(tx: Any) -> None:
        await (await tx.run("RETURN 1")).consume()
        await tx.run("RETURN 2")

    async def go() -> None:
        graph = Graph.connect(neo4j_config)
        try:
            async def never() -> None:
                return None
            await graph.write_once(two, committed=never)
        finally:
            await graph.close()

    with pytest.raises(OneQueryOnly):
        asyncio.run(go())
