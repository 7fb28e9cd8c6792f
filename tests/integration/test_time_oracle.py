"""Every `as_of` / `known_at` read against a replay oracle (docs/time.md), on random histories.

Hypothesis writes a history into a fresh scope through the service's own use cases, on a clock the test moves (one
second an operation): saves with random event and valid times and explicit supersessions, updates of the content or
of the validity's end, deletes, digest passes (which archive what a supersession has closed) and restores. The test
keeps its own record of what each operation did — a plain Python replay, written from the documented rules, not from
the service's code. Then, at instants drawn from the history (record time, `known_at`) and from the event and valid
times (valid time, `as_of`), it asks the service: a load, a list (current truth and include_invalid), a search, a
record's history and the context call's preferences and recent episodes, and holds each answer to the replay."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cognition.schemas.records import MemoryCreate, MemoryUpdate
from graph.errors import CognitionError
from graph.model import Family
from service.usecases import artifacts as use
from service.usecases import context as ctx_use
from service.usecases import passes
from service.usecases.drafts import change_of, draft_of
from service.usecases.runtime import Runtime
from service.usecases.scopes import create_scope
from service.usecases.timeview import TimeView
from tests.conftest import OnRuntime, unique

ACTOR = "oracle"
MEM = [Family.memory]
DAY = timedelta(days=1)
WORDS = ("alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet")


# ---- the replay ------------------------------------------------------------------------------------------------

@dataclass
class Version:
    at: datetime
    revision: int
    content: str
    occurred_at: datetime
    valid_from: datetime
    valid_until: datetime | None
    conflicted: bool


@dataclass
class Rec:
    id: str
    kind: str
    created: datetime
    versions: list[Version] = field(default_factory=list)
    statuses: list[tuple[datetime, str]] = field(default_factory=list)
    deleted: datetime | None = None

    def current(self) -> Version:
        return self.versions[-1]

    def status(self) -> str:
        return self.statuses[-1][1]

    def exists_at(self, t: datetime) -> bool:
        return self.created <= t and (self.deleted is None or self.deleted > t)

    def at(self, t: datetime) -> tuple[Version, str]:
        return ([v for v in self.versions if v.at <= t][-1], [s for at, s in self.statuses if at <= t][-1])


def valid_at(v: Version, a: datetime) -> bool:
    return v.valid_from <= a and (v.valid_until is None or v.valid_until > a)


class Replay:
    def __init__(self) -> None:
        self.recs: dict[str, Rec] = {}

    def picker(self) -> Callable[[int], Rec | None]:
        """The i-th of the records saved so far (modulo their number), or None before the first."""
        ids = list(self.recs)
        return lambda i: self.recs[ids[i % len(ids)]] if ids else None

    def live(self) -> list[Rec]:
        return [r for r in self.recs.values() if r.deleted is None]

    def viewed(self, known_at: datetime | None, now: datetime) -> list[tuple[Rec, Version, str]]:
        """The records as the store held them at `known_at` (None: now), with their version and status, less those
        deleted since (erased: their content went with the delete)."""
        t = known_at or now
        return [(r, *r.at(t)) for r in self.recs.values() if r.exists_at(t) and r.deleted is None]


# ---- the history ----------------------------------------------------------------------------------------------

op_st = st.one_of(
    st.tuples(st.just("save"), st.sampled_from(["preference", "preference", "fact", "episodic"]),
              st.integers(0, 400), st.one_of(st.none(), st.integers(0, 400)), st.one_of(st.none(), st.integers(1, 60)),
              st.lists(st.integers(0, 20), max_size=2)),
    st.tuples(st.just("update"), st.integers(0, 20), st.booleans(), st.one_of(st.none(), st.integers(-30, 60))),
    st.tuples(st.just("delete"), st.integers(0, 20)),
    st.tuples(st.just("digest")),
    st.tuples(st.just("restore"), st.integers(0, 20)),
)


class Clock:
    def __init__(self, start: datetime) -> None:
        self.t = start

    def __call__(self) -> datetime:
        return self.t

    def tick(self) -> datetime:
        self.t += timedelta(seconds=1)
        return self.t


async def run_history(rt: Runtime, clock: Clock, scope: dict[str, Any], ops: list[tuple[Any, ...]],
                      replay: Replay) -> list[datetime]:
    """Write `ops` through the use cases, replaying each in `replay`; the instants after each operation."""
    sid = scope["id"]
    base = clock.t
    instants = [clock.t]
    counter = 0
    for op in ops:
        now = clock.tick()
        pick = replay.picker()
        if op[0] == "save":
            _, kind, occ_days, vf_days, vu_days, targets = op
            counter += 1
            occurred = base - timedelta(days=occ_days)
            valid_from = base - timedelta(days=vf_days) if vf_days is not None else None
            begins = valid_from or min(occurred, now)
            valid_until = begins + timedelta(days=vu_days) if vu_days is not None else None
            older = list(dict.fromkeys(r.id for r in (pick(i) for i in targets) if r is not None))
            body: dict[str, Any] = {"kind": kind, "tier": "agent", "occurred_at": occurred,
                                    "content": f"zeta {WORDS[counter % len(WORDS)]} note {counter}"}
            if valid_from is not None:
                body["valid_from"] = valid_from
            if valid_until is not None:
                body["valid_until"] = valid_until
            if older:
                body["supersedes"] = older
            expect_ok = all(replay.recs[o].deleted is None and replay.recs[o].current().valid_from < begins
                            for o in older)
            try:
                saved = (await use.save(rt, sid, [draft_of(MemoryCreate.model_validate(body))], actor=ACTOR,
                                        role="operator")).items[0]
            except CognitionError as exc:
                assert not expect_ok, exc
                assert exc.code in ("supersedes_not_found", "supersession_out_of_order"), exc.code
                instants.append(now)
                continue
            assert expect_ok, f"save superseding {older} was accepted"
            rec = Rec(saved.id, kind, now)
            rec.versions.append(Version(now, 1, body["content"], occurred, begins, valid_until, False))
            rec.statuses.append((now, "active"))
            replay.recs[saved.id] = rec
            for o in older:
                r = replay.recs[o]
                v = r.current()
                until = v.valid_until if v.valid_until is not None and v.valid_until <= begins else begins
                r.versions.append(Version(now, v.revision + 1, v.content, v.occurred_at, v.valid_from, until, True))
        elif op[0] == "update":
            _, i, new_text, vu_days = op
            r = pick(i)
            if r is None or r.deleted is not None:
                instants.append(now)
                continue
            v = r.current()
            fields: dict[str, Any] = {}
            content = f"{v.content} revised" if new_text else v.content
            if new_text:
                fields["content"] = content
            until = v.valid_until
            if vu_days is not None:
                until = v.valid_from + timedelta(days=vu_days)
                fields["valid_until"] = until
            if not fields:
                fields["content"] = content = f"{v.content} again"
            ok = until is None or until > v.valid_from
            try:
                await use.update(rt, sid, r.id, MEM, change_of(MemoryUpdate.model_validate(fields), v.revision),
                                 actor=ACTOR)
            except CognitionError as exc:
                assert not ok and exc.code == "invalid_validity", exc
                instants.append(now)
                continue
            assert ok
            r.versions.append(Version(now, v.revision + 1, content, v.occurred_at, v.valid_from, until, v.conflicted))
        elif op[0] == "delete":
            r = pick(op[1])
            if r is None or r.deleted is not None:
                instants.append(now)
                continue
            await use.delete(rt, sid, r.id, MEM, detach=True, reason=None, actor=ACTOR)
            r.deleted = now
            r.statuses.append((now, "removed"))
        elif op[0] == "digest":
            await passes.run_digest(rt, namespace=scope["namespace"], cognitive_owner=scope["cognitive_owner"],
                                    phases=["archive"], actor=ACTOR)
            for r in replay.live():
                v = r.current()
                if r.status() == "active" and v.conflicted and (v.valid_until is None or v.valid_until <= now):
                    r.statuses.append((now, "archived"))
        else:  # restore
            r = pick(op[1])
            if r is None or r.deleted is not None:
                instants.append(now)
                continue
            if r.status() == "archived":
                await use.restore(rt, sid, r.id, MEM, actor=ACTOR, reason=None)
                r.statuses.append((now, "active"))
            else:
                try:
                    await use.restore(rt, sid, r.id, MEM, actor=ACTOR, reason=None)
                    raise AssertionError("a restore of a record that is not archived was accepted")
                except CognitionError as exc:
                    assert exc.code == "not_archived"
        instants.append(now)
    return instants


# ---- the checks ------------------------------------------------------------------------------------------------

async def check(rt: Runtime, sid: str, replay: Replay, known_at: datetime | None, as_of: datetime,
                now: datetime) -> None:
    view = TimeView(as_of=as_of, known_at=known_at)
    rows = replay.viewed(known_at, now)
    where = f"known_at={known_at}, as_of={as_of}"

    # list: active records valid at as_of; with include_invalid, all active ones; archived ones
    page, _ = await use.list_page(rt, sid, Family.memory, limit=500, view=view)
    want = {r.id for r, v, s in rows if s == "active" and valid_at(v, as_of)}
    assert {a.id for a in page} == want, where
    for a in page:
        r = replay.recs[a.id]
        v, _ = r.at(known_at or now)
        assert (a.content, a.revision, a.valid_until, a.conflicted) == (v.content, v.revision, v.valid_until,
                                                                        v.conflicted), (where, a.id)
    every, _ = await use.list_page(rt, sid, Family.memory, limit=500,
                                   view=TimeView(as_of=as_of, known_at=known_at, include_invalid=True))
    assert {a.id for a in every} == {r.id for r, v, s in rows if s == "active"}, where
    archived, _ = await use.list_page(rt, sid, Family.memory, status="archived", limit=500,
                                      view=TimeView(known_at=known_at, include_invalid=True))
    assert {a.id for a in archived} == {r.id for r, v, s in rows if s == "archived"}, where

    # search: every record says "zeta"; not a recall at known_at (the store as it is counts, which changes nothing
    # this replay checks)
    hits = await use.search(rt, sid, MEM, query="zeta", limit=100, view=view, recall=False)
    assert {a.id for a, _ in hits} == want, where

    # the context call: preferences (as a set: their order follows recall counts) and recent episodes (in order)
    got = await ctx_use.assemble(rt, sid, surface="eager", limits={"preferences": 100, "recent_episodes": 100},
                                 view=view)
    prefs = {r.id for r, v, s in rows if s == "active" and r.kind == "preference" and valid_at(v, as_of)}
    assert {a.id for a in got.arms["preferences"]} == prefs, where
    episodes = sorted(((v.occurred_at, r.id) for r, v, s in rows
                       if s == "active" and r.kind == "episodic" and valid_at(v, as_of) and v.occurred_at <= as_of),
                      reverse=True)
    assert [a.id for a in got.arms["recent_episodes"]] == [i for _, i in episodes], where

    # load and history of each record, at known_at
    if known_at is not None:
        for r in replay.recs.values():
            try:
                a = await use.load(rt, sid, r.id, MEM, TimeView(known_at=known_at))
            except CognitionError as exc:
                if r.created > known_at:
                    assert exc.code == "not_found", (where, r.id, exc.code)
                elif r.deleted is not None and r.deleted <= known_at:
                    assert exc.code == "artifact_removed", (where, r.id, exc.code)
                else:
                    assert r.deleted is not None and exc.code == "artifact_erased", (where, r.id, exc.code)
                continue
            assert r.exists_at(known_at) and r.deleted is None, (where, r.id)
            v, s = r.at(known_at)
            assert (a.content, a.revision, a.status.value, a.valid_until) == (v.content, v.revision, s,
                                                                              v.valid_until), (where, r.id)
            items = await use.history(rt, sid, r.id, MEM, TimeView(known_at=known_at))
            assert [i["revision"] for i in items if i["type"] == "revision"] == [
                x.revision for x in r.versions if x.at <= known_at], (where, r.id)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(ops=st.lists(op_st, min_size=1, max_size=14), picks=st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)),
                                                                      min_size=2, max_size=3))
def test_as_of_and_known_at_reads_match_a_replay_of_the_history(on_runtime: OnRuntime,
                                                                   ops: list[tuple[Any, ...]],
                                                                   picks: list[tuple[int, int]]) -> None:
    clock = Clock(datetime.now(UTC).replace(microsecond=0) - timedelta(days=2))

    async def main(rt: Runtime) -> None:
        scope = await create_scope(rt, namespace=unique("ns"), cognitive_owner=unique("owner"), name="oracle",
                                   actor=ACTOR)
        replay = Replay()
        instants = await run_history(rt, clock, scope, ops, replay)
        now = clock.tick()
        times = sorted({*instants} | {t for r in replay.recs.values() for v in r.versions
                                       for t in (v.occurred_at, v.valid_from, v.valid_until) if t is not None})
        for k, a in picks:
            known_at = instants[k % len(instants)] if k % 4 else None  # a quarter of the reads: the store as it is
            as_of = times[a % len(times)] + timedelta(microseconds=a % 2)  # on a boundary, or just after it
            await check(rt, scope["id"], replay, known_at, as_of, now)
        await check(rt, scope["id"], replay, None, now, now)  # current truth

    on_runtime(main, clock=clock)


def test_the_oracle_sees_a_supersession_it_would_miss_without_valid_time(on_runtime: OnRuntime) -> None:
    """The replay is not vacuous: one fixed history whose as_of reads differ from its current truth."""
    clock = Clock(datetime.now(UTC).replace(microsecond=0) - timedelta(days=2))
    ops: list[tuple[Any, ...]] = [("save", "preference", 100, None, None, []),
                                  ("save", "preference", 10, None, None, [0])]

    async def main(rt: Runtime) -> None:
        scope = await create_scope(rt, namespace=unique("ns"), cognitive_owner=unique("owner"), name="oracle",
                                   actor=ACTOR)
        replay = Replay()
        instants = await run_history(rt, clock, scope, ops, replay)
        now = clock.tick()
        first, second = list(replay.recs.values())
        assert first.current().valid_until == second.current().valid_from
        between = first.current().valid_from + DAY
        got = await ctx_use.assemble(rt, scope["id"], surface="eager", view=TimeView(as_of=between))
        assert [a.id for a in got.arms["preferences"]] == [first.id]
        got = await ctx_use.assemble(rt, scope["id"], surface="eager")
        assert [a.id for a in got.arms["preferences"]] == [second.id]
        await check(rt, scope["id"], replay, instants[1], between, now)
        await check(rt, scope["id"], replay, None, between, now)

    on_runtime(main, clock=clock)
