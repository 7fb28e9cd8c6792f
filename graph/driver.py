"""Driver lifecycle and units of work. One async driver per process; every use case is one managed
transaction, retried by the driver on transient errors, so transaction functions must be idempotent.
A transaction's BEGIN travels with its first query (pipelined, as the driver's own `execute_query` does), so a
one-query unit of work is two round trips: BEGIN+RUN+PULL, then COMMIT. A unit of work that is one query and
knows how to tell whether an earlier attempt committed (a save: its ids are made before it runs) can run as one
auto-commit transaction instead (`Graph.write_once`): one round trip, retried here."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

from neo4j import (
    AsyncDriver,
    AsyncGraphDatabase,
    AsyncManagedTransaction,
    AsyncSession,
    Bookmarks,
    RoutingControl,
)
from neo4j.exceptions import ConstraintError, DriverError, Neo4jError, TransientError

import cypher
from graph.errors import CognitionError, Unavailable, translate

_log = logging.getLogger("cognition.graph")
T = TypeVar("T")
TxFn = Callable[..., Awaitable[T]]  # called as fn(tx, *args, **kwargs) inside a managed transaction
MAX_RETRY_S = 8.0  # the driver's max_transaction_retry_time below, for write_once's own retries too
MAX_BOOKMARKS = 16  # a caller's bookmarks kept (service/http/causal.py); more are dropped, oldest first

# Causal consistency across replicas and cluster members (`causal` below): the bookmarks a caller sent, which every
# unit of work inside waits for, and where the bookmarks of the writes made inside are collected.
_AFTER: ContextVar[tuple[str, ...]] = ContextVar("cognition_bookmarks_after", default=())
_WRITTEN: ContextVar[list[str] | None] = ContextVar("cognition_bookmarks_written", default=None)


@contextlib.contextmanager
def causal(after: Iterable[str] = ()) -> Iterator[list[str]]:
    """Inside: every unit of work on any Graph also waits until the database holds the transactions these bookmarks
    name (a caller's own writes, made through another replica or on another cluster member), and the list it yields
    holds the bookmarks of the latest write made inside (which a process's writes chain on: it follows them all)."""
    sink: list[str] = []
    before, wrote = _AFTER.set(tuple(after)[-MAX_BOOKMARKS:]), _WRITTEN.set(sink)
    try:
        yield sink
    finally:
        _AFTER.reset(before)
        _WRITTEN.reset(wrote)


@dataclass(frozen=True, slots=True)
class Neo4jConfig:
    uri: str
    user: str
    password: str
    database: str = "neo4j"


def make_driver(cfg: Neo4jConfig) -> AsyncDriver:
    return AsyncGraphDatabase.driver(
        cfg.uri,
        auth=(cfg.user, cfg.password),
        connection_timeout=3.0,
        connection_acquisition_timeout=10.0,
        max_transaction_retry_time=MAX_RETRY_S,
        liveness_check_timeout=30.0,
        telemetry_disabled=True,  # no TELEMETRY message per transaction (and nothing about us sent to Neo4j)
        # No notifications: they are advice to a query's author (EXPLAIN shows them), and in a store where a
        # property key is not yet used (`valid_until` before the first supersession) every list would bring one
        # back, which the driver formats and logs as a warning on the request's path.
        notifications_min_severity="OFF",
    )


def _pipelined(session: Any) -> contextlib.AbstractContextManager[Any]:
    """Send the transaction's BEGIN with its first query instead of waiting for BEGIN's answer first: one round
    trip (and one socket write and read) less per transaction. It is the switch the driver's `execute_query`
    turns on (`AsyncSession._pipelined_begin`, private in driver 6); without it, the transaction just begins the
    usual way. A failed BEGIN then surfaces at the first query, inside the driver's retry, as in execute_query."""
    flag = getattr(session, "_pipelined_begin", None)
    return flag if isinstance(flag, contextlib.AbstractContextManager) else contextlib.nullcontext()


async def run_named(tx: AsyncManagedTransaction, name: str, **params: Any) -> list[dict[str, Any]]:
    """Run the named query (`cypher/<name>.cypher`, fragments composed) inside a repository's transaction."""
    result = await tx.run(cypher.compose(name), params)
    return [r.data() async for r in result]


class OneQueryOnly(RuntimeError):
    """A unit of work given to `Graph.write_once` tried a second query (a programming error, raised as is)."""


class _OneQuery:
    """What `Graph.write_once` hands its unit of work as `tx`: a session that runs one query, the auto-commit
    transaction. A second query would be a second transaction, so it is refused: such work needs `Graph.write`."""

    def __init__(self, session: AsyncSession) -> None:
        self._session: AsyncSession | None = session

    async def run(self, query: Any, parameters: dict[str, Any] | None = None, **kwargs: Any) -> Any:
        if self._session is None:
            raise OneQueryOnly("write_once runs one query; a unit of work of several needs Graph.write")
        session, self._session = self._session, None
        return await session.run(query, parameters, **kwargs)


def _retry_delays() -> Any:
    """The driver's own backoff (1 s, doubling, ±20% jitter)."""
    delay = 1.0
    while True:
        yield delay * random.uniform(0.8, 1.2)
        delay *= 2


class Graph:
    """The driver plus the database name: runs units of work and translates errors at this boundary."""

    def __init__(self, driver: AsyncDriver, database: str = "neo4j", *, chain: bool = True) -> None:
        self.driver = driver
        self.database = database
        # Through a routing URI (`neo4j://`, a cluster) every session of this process chains on the one before: a
        # read sees the process's own earlier writes even where it is routed to another member. One server shows
        # every committed write to every later transaction, so there the chain is left out: it would only wedge
        # the process behind a store restored from a dump, its own bookmarks naming transactions the store lost.
        self.bookmarks = AsyncGraphDatabase.bookmark_manager() if chain else None

    def _session(self, **kw: Any) -> AsyncSession:
        after = _AFTER.get()
        return self.driver.session(database=self.database, bookmark_manager=self.bookmarks,
                                   bookmarks=Bookmarks.from_raw_values(after) if after else None, **kw)

    @staticmethod
    async def _wrote(session: AsyncSession) -> None:
        sink = _WRITTEN.get()
        if sink is not None:
            sink[:] = sorted((await session.last_bookmarks()).raw_values)

    @classmethod
    def connect(cls, cfg: Neo4jConfig) -> Graph:
        return cls(make_driver(cfg), cfg.database, chain=cfg.uri.split("://", 1)[0].startswith("neo4j"))

    async def close(self) -> None:
        await self.driver.close()

    async def write(self, fn: TxFn[T], *args: Any, **kwargs: Any) -> T:
        try:
            async with self._session() as session:
                with _pipelined(session):
                    out = await session.execute_write(fn, *args, **kwargs)
                await self._wrote(session)
                return out
        except Exception as exc:  # translate once, here
            raise await self._refusal(exc) from exc

    async def write_once(self, fn: TxFn[T], *args: Any, committed: Callable[[], Awaitable[T | None]] | None,
                         **kwargs: Any) -> T:
        """`fn(tx, ...)` runs exactly one query, as one auto-commit transaction: RUN and PULL go out together and
        the answer comes back committed — one round trip where `write` needs two (BEGIN+RUN+PULL, COMMIT). What
        `fn` raises after its query must not need a rollback (it may only refuse what the query did not write).

        Retried like `write` (transient errors and lost connections, with the driver's backoff, for up to
        MAX_RETRY_S). A lost connection leaves it unknown whether the transaction committed, which a managed
        transaction only risks during COMMIT; so before each attempt after such a loss `committed()` is asked
        (in a transaction of its own): its answer, when not None, is the outcome of the attempt that committed.
        A save answers it by looking up the ids it made before running; and should it race a commit still in
        flight, the retry's CREATE meets the unique id constraint and nothing is written twice. `committed=None`:
        the work cannot tell, and is run again (a context call or a search: a recall may then count twice)."""
        delays, started, in_doubt = _retry_delays(), -1.0, False
        last: Exception
        while True:
            try:
                if in_doubt and committed is not None:
                    done = await committed()
                    if done is not None:
                        return done
                async with self._session() as session:
                    out = await fn(_OneQuery(session), *args, **kwargs)
                    await self._wrote(session)
                    return out
            except Unavailable as exc:  # from committed(), a transaction of its own: the database is away
                last = exc
            except (DriverError, Neo4jError) as exc:
                # raced the commit it could not see: answer it
                if in_doubt and committed is not None and isinstance(exc, ConstraintError):
                    done = await committed()
                    if done is not None:
                        return done
                if not exc.is_retryable():
                    raise await self._refusal(exc) from exc
                in_doubt = in_doubt or not isinstance(exc, TransientError)  # a transient error rolled back
                last = exc
            except (CognitionError, OneQueryOnly):
                raise
            except Exception as exc:
                raise await self._refusal(exc) from exc
            now = time.monotonic()
            started = now if started < 0 else started
            if now - started > MAX_RETRY_S:
                raise (last if isinstance(last, CognitionError) else await self._refusal(last)) from last
            _log.info("write_once retried after %s", type(last).__name__)
            await asyncio.sleep(next(delays))

    async def read(self, fn: TxFn[T], *args: Any, **kwargs: Any) -> T:
        try:
            async with self._session(default_access_mode="READ") as session:
                with _pipelined(session):
                    return await session.execute_read(fn, *args, **kwargs)
        except Exception as exc:
            raise await self._refusal(exc) from exc

    async def query(self, cypher: str, *, write: bool = True, database: str | None = None,
                    **params: Any) -> list[dict[str, Any]]:
        """One query as its own managed transaction (driver-retried), records as dicts."""
        try:
            result = await self.driver.execute_query(
                cypher, params, database_=database or self.database,
                routing_=RoutingControl.WRITE if write else RoutingControl.READ)
        except Exception as exc:
            raise await self._refusal(exc) from exc
        return [r.data() for r in result.records]

    async def autocommit(self, cypher: str, *, database: str | None = None,
                         on_record: Callable[[dict[str, Any]], None] | None = None,
                         **params: Any) -> list[dict[str, Any]]:
        """An auto-commit query: needed by schema commands and `CALL { … } IN TRANSACTIONS`. Not retried.
        `on_record` sees each record as it streams in (progress of a long query)."""
        try:
            async with self.driver.session(database=database or self.database) as session:
                result = await session.run(cypher, params)
                records = []
                async for r in result:
                    records.append(r.data())
                    if on_record is not None:
                        on_record(records[-1])
                return records
        except Exception as exc:
            raise await self._refusal(exc) from exc

    async def _refusal(self, exc: Exception) -> CognitionError:
        """`translate`, plus one case it cannot decide alone. An error it has no mapping for is a 500, unless the
        database stopped answering meanwhile: Neo4j reports a before-commit trigger that failed inside an inner
        transaction of `CALL { … } IN TRANSACTIONS` (a digest or GC pass) only as "Transaction hook failure",
        without the trigger's reason, and while the server shuts down that reason is "database unavailable" (the
        soak's restart caught a GC pass this way). The transaction rolled back, so that is a 503, retried; with
        the database answering, the same error is a bug and stays a 500, logged with its Neo4j code."""
        err = translate(exc)
        if type(err) is not CognitionError or err.code != "internal_error":
            return err
        if not await self.ping(timeout=2.0):
            return Unavailable("Neo4j is not available right now; retry shortly")
        _log.error("unexpected database error %s: %s", getattr(exc, "code", None) or type(exc).__name__,
                   str(getattr(exc, "message", "") or "")[:300])
        return err

    async def ping(self, timeout: float = 3.0) -> bool:
        try:
            # the driver itself, not self.query: a failed ping must not come back through _refusal
            await asyncio.wait_for(self.driver.execute_query("RETURN 1 AS ok", database_=self.database,
                                                             routing_=RoutingControl.READ), timeout)
        except Exception:
            return False
        return True
