"""The scope index is built off the event loop, several scopes at once: stemming must be safe across threads (a
shared Snowball stemmer keeps its current word in itself; the soak saw an IndexError from it)."""

from __future__ import annotations

import threading

from service.search import lexical

WORDS = ["running", "jumps", "easily", "connections", "agreed", "happiness", "generously", "relational"] * 500


def test_stemming_from_many_threads_is_the_same_as_from_one() -> None:
    expected = [lexical._stem.__wrapped__(w) for w in WORDS]
    errors: list[BaseException] = []
    results: list[list[str]] = []
    barrier = threading.Barrier(8)

    def work() -> None:
        try:
            barrier.wait(10)
            results.append([lexical._stem.__wrapped__(w) for w in WORDS])
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == [] and len(results) == 8
    assert all(r == expected for r in results)
