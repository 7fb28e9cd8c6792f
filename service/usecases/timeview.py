"""Which view of time a read answers (docs/time.md). Three clocks, never confused:

- `occurred_at` — when the thing happened (the caller's; default the save time);
- `valid_from` / `valid_until` — when a fact held in the world (memories and knowledge pages; a supersession closes
  the older record's validity);
- `created_at`, revisions, events and tombstones — when the store learned and changed it (the service's clock).

A read defaults to *current truth*: what is valid now, as the store holds it now. `as_of=T` answers what was valid
at T (valid time); `known_at=T` answers from the store as it was at T (record time: revisions, statuses and
deletions replayed); both together answer "what did we believe at `known_at` about `as_of`". `now` is the
question's own date: relative phrases of a query resolve against it, and it is the default `as_of`."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from graph.errors import Invalid
from service.search import temporal


@dataclass(frozen=True, slots=True)
class TimeView:
    """What a caller asked for; `None` everywhere is current truth."""

    as_of: datetime | None = None
    known_at: datetime | None = None
    include_invalid: bool = False  # records not valid at as_of are answered too (lists and search)
    now: datetime | None = None

    def resolved(self, clock: datetime) -> Resolved:
        """The instants this view reads at, checked against the service's clock: the store's future is not known."""
        if self.known_at is not None and self.known_at > clock:
            raise Invalid("known_at is in the future: the store cannot answer as it will be",
                          code="known_at_in_future", details={"field": "known_at"})
        now = self.now or clock
        return Resolved(as_of=self.as_of or now, known_at=self.known_at, include_invalid=self.include_invalid,
                        now=now, clock=clock, explicit_now=self.now is not None)


CURRENT = TimeView()


@dataclass(frozen=True, slots=True)
class Resolved:
    """A view made concrete: `as_of` and `now` are always instants; `known_at` is None for the store as it is."""

    as_of: datetime
    known_at: datetime | None
    include_invalid: bool
    now: datetime
    clock: datetime
    explicit_now: bool = False
    spans: tuple[tuple[str, datetime, datetime], ...] = ()  # the query's time phrases and what they named

    def asked(self, query: str | None) -> tuple[Resolved, temporal.QueryTime | None]:
        """This view with the time phrases of `query` resolved against `now` (what the answer echoes), and the query's
        time for ranking (service/search/temporal) — None when the query says nothing about time."""
        if not query:
            return self, None
        when = temporal.query_time(query, self.now)
        if not when.active:
            return self, None
        return replace(self, spans=tuple((r.text, r.start, r.end) for r in when.refs)), when

    def wire(self) -> dict[str, Any]:
        """The view as an answer states it (cognition.schemas.records.TimeView)."""
        return {"as_of": self.as_of, "known_at": self.known_at, "include_invalid": self.include_invalid,
                "now": self.now if self.explicit_now or self.spans else None,
                "resolved": [{"text": t, "start": s, "end": e} for t, s, e in self.spans]}


def valid_at(record: Any, at: datetime) -> bool:
    """ValidAt, the Python mirror of cypher/fragments/valid_at.cypher, over a record or a map of its properties."""
    if isinstance(record, dict):
        start, end = record.get("valid_from"), record.get("valid_until")
    else:
        start, end = getattr(record, "valid_from", None), getattr(record, "valid_until", None)
    return (start is None or start <= at) and (end is None or end > at)
