"""One description of each store operation, run two ways: an operation is a generator (a `Plan`) that yields the
client's requests (`Call`s, or `Parallel` ones) and receives each answer — or has each refusal thrown into it. The
sync driver runs the requests on the sync client, the async driver on the async client (gathering the parallel ones),
so `batch` and `abatch` cannot drift apart."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, TypeVar

from cognition.client import errors
from cognition.client._core import Call

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Parallel:
    """Requests that may run at once (the async driver gathers them); each answer or error, in order."""

    calls: list[Call[Any]]


Step = Call[Any] | Parallel
Plan = Generator[Step, Any, T]


def drive_sync(plan: Plan[T], run: Callable[[Call[Any]], Any]) -> T:
    value: Any = None
    failure: BaseException | None = None
    while True:
        try:
            step = plan.send(value) if failure is None else plan.throw(failure)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]
        value, failure = None, None
        if isinstance(step, Parallel):
            value = [_attempt(run, c) for c in step.calls]
            continue
        try:
            value = run(step)
        except errors.CognitionClientError as exc:
            failure = exc


def _attempt(run: Callable[[Call[Any]], Any], call: Call[Any]) -> Any:
    try:
        return run(call)
    except errors.CognitionClientError as exc:
        return exc


async def drive_async(plan: Plan[T], run: Callable[[Call[Any]], Any]) -> T:
    value: Any = None
    failure: BaseException | None = None
    while True:
        try:
            step = plan.send(value) if failure is None else plan.throw(failure)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]
        value, failure = None, None
        if isinstance(step, Parallel):
            answers = await asyncio.gather(*(run(c) for c in step.calls), return_exceptions=True)
            for a in answers:
                if isinstance(a, BaseException) and not isinstance(a, errors.CognitionClientError):
                    raise a
            value = list(answers)
            continue
        try:
            value = await run(step)
        except errors.CognitionClientError as exc:
            failure = exc


