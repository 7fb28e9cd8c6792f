"""Graph.write / Graph.read send BEGIN with the first query through the driver's own switch
(`AsyncSession._pipelined_begin`, private in driver 6). A driver upgrade that renames it would silently bring the
extra round trip back (graph/driver.py falls back to the plain begin): this test notices first. No server is
needed: a session connects only when its first transaction begins."""

from __future__ import annotations

import asyncio
import contextlib

from neo4j import AsyncGraphDatabase

from graph.driver import _pipelined


def test_transactions_begin_pipelined_through_the_drivers_own_switch() -> None:
    async def check() -> None:
        driver = AsyncGraphDatabase.driver("bolt://127.0.0.1:9", auth=("neo4j", "unused"))
        try:
            session = driver.session(database="neo4j")
            flag = _pipelined(session)
            assert flag is session._pipelined_begin  # the switch execute_query turns on, not the fallback
            assert not bool(flag)
            with flag:
                assert bool(flag)  # what AsyncSession._open_transaction reads as `pipelined`
            assert not bool(flag)
            await session.close()
        finally:
            await driver.close()

    asyncio.run(check())


def test_without_the_switch_a_transaction_begins_the_usual_way() -> None:
    class Session:  # a driver without the private attribute
        pass

    assert isinstance(_pipelined(Session()), contextlib.nullcontext)
