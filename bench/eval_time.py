"""`python -m bench.eval_time [--sensitivity] [--loo] [--cost N]` — time in ranking, measured offline on the
LoCoMo dev split.

LoCoMo: Maharana et al., "Evaluating Very Long-Term Conversational Memory of LLM Agents", ACL 2024 (CC BY-NC 4.0),
read as bench/eval_data.py reads it (never copied into this repository).

The same ranking code as the service's search, fed the turns directly instead of through Neo4j (as
bench/eval_levers.py does): one service.search.scope_index.ScopeCopy per conversation, every turn an episodic memory
in turn order (created 1 µs apart, as a batch save makes them), its `occurred` the session's date and time
(`session_N_date_time`); every scorable question ranked by ScopeCopy.rank (fetch 40, the service's for 10 results)
and fused by service.search.ranking.fuse (no vectors). What this leaves out — the live status filter and the
retention boost — is the same for every turn of a freshly saved conversation.

Questions carry no date of their own: each is asked at its conversation's last session date (`now`), as the
questions are written after the conversation ends.

Configurations: (a) the default, no dates (no occurred_at: each turn happened when it was saved); (b) dates as
fields — each turn's occurred_at and the question's `now`, only occurred_at ranked (no row texts resolved); (c) the
time rule, which also resolves each turn's own text against its occurred_at; (d) the occasion lift on top (a turn
rises toward the best-matching turn of its session, which shares its occurred_at): the default ranking with dates,
and variants. `--sensitivity` moves each of the rule's three constants and the occasion weight alone; `--loo` picks
the constants, then the occasion weight, on four conversations and measures them on the fifth, for each fifth;
`--cost N` builds a copy of N rows (default 100,000) with the rows' `said` stored at save time and with every text
resolved instead.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from itertools import product
from typing import Any

from bench import eval_data
from bench.eval_recall import Score
from service.search import ranking, temporal
from service.search.scope_index import IndexParams, ScopeCopy

D = ranking.DEFAULT
FETCH = D.fetch(10)
BASE = IndexParams(neighbour_weight=D.neighbour_weight, neighbour_weight_2=D.neighbour_weight_2,
                   occasion_weight=D.occasion_weight)
# The in-process sweep's default (python -m bench.eval_levers: every turn, no `now`), which the offline default should
# reproduce. `make eval` differs from it by the turns the threat scan holds and its calls' `now` (the current time).
KNOWN = {"hit@10": 0.795, "hit@5": 0.670, "multi-hop hit@10": 0.697, "temporal hit@10": 0.840,
         "open-domain hit@10": 0.500, "single-hop hit@10": 0.842}
_CREATED0 = 1_700_000_000_000_000_000


@dataclass(slots=True)
class Scope:
    conv: eval_data.Conversation
    copy: ScopeCopy            # occurred_at = session dates, rows' texts resolved
    plain: ScopeCopy           # the same turns without occurred_at (no dates: each happened when it was saved)
    now: datetime              # the questions' date: the conversation's last session


def scopes(convs: Sequence[eval_data.Conversation], dated_text: bool = False) -> list[Scope]:
    out = []
    for conv in convs:
        rows = [{"id": t.dia_id, "family": "memory", "kind": "episodic",
                 "content": f"{t.date_time}\n{t.text}" if dated_text else t.text,
                 "created": _CREATED0 + 1000 * i, "occurred": temporal.ns(eval_data.session_time(t.date_time))}
                for i, t in enumerate(conv.turns)]
        plain = ScopeCopy.build((), None, [dict(r, occurred=None) for r in rows])
        out.append(Scope(conv, ScopeCopy.build((), None, rows), plain, eval_data.asked_at(conv)))
    return out


@dataclass(frozen=True, slots=True)
class Config:
    name: str
    rule: temporal.TimeRule | None = temporal.DEFAULT_RULE  # None: no `now`, no time (the default)
    row_texts: bool = True      # the intervals rows' texts name (False: occurred_at only)
    strip: bool = False         # drop the query's time expressions from its words
    dated_text: bool = False    # the session's date pasted into each indexed text instead
    fields: bool = True         # each turn's occurred_at its session's date (False: no dates, as make eval's default)
    occasion: float = D.occasion_weight  # the occasion lift (RankingParams.occasion_weight)


def _strip(text: str, when: temporal.QueryTime) -> str:
    out, at = [], 0
    for ref in when.refs:
        out.append(text[at:ref.at[0]])
        at = ref.at[1]
    return "".join(out) + text[at:]


def evaluate(data: Sequence[Scope], cfg: Config) -> dict[str, Any]:
    score = Score()
    rp = replace(D)
    for s in data:
        copy = s.plain if not cfg.fields else s.copy if cfg.row_texts else replace(s.copy, said=None)
        params = BASE if cfg.rule is None else replace(BASE, time=cfg.rule)
        params = replace(params, occasion_weight=cfg.occasion)
        for q in s.conv.questions:
            when = None if cfg.rule is None else temporal.query_time(q.text, s.now)
            text = _strip(q.text, when) if cfg.strip and when is not None else q.text
            ft, _ = copy.rank(text, None, ["memory"], FETCH, params, when)
            score.add(q.category, [d for d, _ in ranking.fuse(ft, [], {}, rp)][:10], q.evidence)
    return score.summary()


def configs() -> list[Config]:
    r = temporal.DEFAULT_RULE
    return [
        Config("(a) default: no dates", None, fields=False),
        Config("    dates pasted into the indexed text (no fields)", None, dated_text=True, fields=False),
        Config("    dates as fields, no now: the occasion lift only", None),
        Config("(b) dates as fields + now: occurred_at only", replace(r, states_boost=0.0), row_texts=False,
               occasion=0.0),
        Config("(c) + rows' own texts resolved (the time rule)", r, occasion=0.0),
        Config("(d) + the occasion lift (the default with dates)", r),
        Config("    (d) without the asks-when rule", replace(r, states_boost=0.0)),
        Config("    (d) asks-when rule only (no intervals)", replace(r, boost=0.0)),
        Config("    (d) + the query's time words dropped from its words", r, strip=True),
    ]


def sensitivity() -> list[Config]:
    r = temporal.DEFAULT_RULE
    out = [Config(f"boost {b:g}", replace(r, boost=b)) for b in (0.5, 1.0, 2.0, 4.0, 8.0)]
    out += [Config(f"lag_days {lag:g}", replace(r, lag_days=lag)) for lag in (0.0, 3.0, 7.0, 14.0, 30.0)]
    out += [Config(f"states_boost {sb:g}", replace(r, states_boost=sb)) for sb in (0.0, 0.25, 0.5, 1.0, 2.0)]
    out += [Config(f"occasion_weight {w:g}", r, occasion=w) for w in (0.0, 0.05, 0.1, 0.2, 0.3, 0.5)]
    return out


GRID = [temporal.TimeRule(b, lag, sb) for b, lag, sb in product((0.5, 1.0, 2.0, 4.0, 8.0), (0.0, 3.0, 7.0, 14.0),
                                                               (0.0, 0.25, 0.5, 1.0))]


OCCASION_GRID = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5)


def occasion_loo(data: Sequence[Scope]) -> list[tuple[str, float, dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """For each conversation: the occasion weight of OCCASION_GRID best on the other four (overall hit@10; the
    first on a tie), measured on it, beside the default weight and none."""
    out = []
    for held in data:
        rest = [s for s in data if s is not held]
        best = max(OCCASION_GRID, key=lambda w: evaluate(rest, Config("", occasion=w))["hit@10"])
        out.append((held.conv.id, best, evaluate([held], Config("", occasion=best)),
                    evaluate([held], Config("")), evaluate([held], Config("", occasion=0.0))))
    return out


Held = tuple[str, temporal.TimeRule, dict[str, Any], dict[str, Any], dict[str, Any]]


def leave_one_out(data: Sequence[Scope]) -> list[Held]:
    """For each conversation: the grid's best rule on the other four (overall hit@10, then temporal; the first in
    grid order on a tie), measured on it, beside the default rule and no dates measured on it."""
    out = []
    for held in data:
        rest = [s for s in data if s is not held]
        scored = [(evaluate(rest, Config("", r)), r) for r in GRID]
        best = max(scored, key=lambda x: (x[0]["hit@10"], x[0]["temporal hit@10"]))[1]
        out.append((held.conv.id, best, evaluate([held], Config("", best)),
                    evaluate([held], Config("", temporal.DEFAULT_RULE)),
                    evaluate([held], Config("", None, fields=False))))
    return out


def cost(n: int) -> dict[str, float]:
    """A copy of n rows (LoCoMo turns drawn at random, each occurred at its session's date) built twice, best of
    three each, interleaved: with each row's `said` stored (computed at save time: temporal.said_of, not timed) and
    with every text resolved while the copy is built."""
    convs = eval_data.load()
    turns = [t for c in convs for t in c.turns]
    rnd = random.Random(1)
    pick = [rnd.choice(turns) for _ in range(n)]
    rows = [{"id": f"r{i}", "family": "memory", "kind": "episodic", "content": t.text,
             "created": _CREATED0 + 1000 * i, "occurred": temporal.ns(eval_data.session_time(t.date_time))}
            for i, t in enumerate(pick)]
    t0 = time.perf_counter()
    stored = [dict(r, said=temporal.said_of(str(r["content"]), int(r["occurred"]))) for r in rows]
    at_save = time.perf_counter() - t0
    best = {"stored": float("inf"), "resolved": float("inf")}
    for _ in range(3):
        for name, batch in (("stored", stored), ("resolved", rows)):
            t0 = time.perf_counter()
            copy = ScopeCopy.build((), None, batch)
            best[name] = min(best[name], time.perf_counter() - t0)
    assert copy.said is not None
    return {"rows": n, "stored s": best["stored"], "resolved s": best["resolved"],
            "us per row": 1e6 * (best["resolved"] - best["stored"]) / n, "said_of us": 1e6 * at_save / n,
            "rows naming a time": len(set(copy.said.row.tolist())) / n}


def _row(name: str, s: dict[str, Any]) -> str:
    cats = "  ".join(f"{s[f'{c} hit@10']:.3f}/{s[f'{c} hit@5']:.3f}" for c in eval_data.CATEGORIES.values())
    return f"{name:58s} {s['hit@10']:.3f}  {s['hit@5']:.3f}   {cats}"


def _head() -> str:
    cats = "  ".join(f"{c[:11]:>11s}" for c in eval_data.CATEGORIES.values())
    return f"{'configuration':58s} hit@10 hit@5   {cats}\n{'':58s} {'':13s}   (each category: hit@10/hit@5)"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.eval_time", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sensitivity", action="store_true", help="move each constant of the rule alone")
    ap.add_argument("--loo", action="store_true", help="constants picked on four conversations, measured on the fifth")
    ap.add_argument("--cost", type=int, nargs="?", const=100_000, help="time the row texts' resolution at N rows")
    args = ap.parse_args(argv)
    convs = eval_data.load()
    data = scopes(convs)
    dated = scopes(convs, dated_text=True)
    n_q = sum(len(c.questions) for c in convs)
    print(f"LoCoMo dev split ({eval_data.data_path()}): {len(convs)} conversations, "
          f"{sum(len(c.turns) for c in convs)} turns, {n_q} questions (LoCoMo: Maharana et al., ACL 2024, "
          "CC BY-NC 4.0); each question asked at its conversation's last session date")
    touched = {name: 0 for name in ("names a time", "asks when")}
    per_cat: dict[str, list[int]] = {c: [0, 0, 0] for c in eval_data.CATEGORIES.values()}
    for s in data:
        for q in s.conv.questions:
            w = temporal.query_time(q.text, s.now)
            cat = per_cat[eval_data.CATEGORIES[q.category]]
            cat[0] += 1
            cat[1] += bool(w.refs)
            cat[2] += w.asks
            touched["names a time"] += bool(w.refs)
            touched["asks when"] += w.asks
    rows_said = sum(len(set(s.copy.said.row.tolist())) for s in data if s.copy.said is not None)
    print(f"questions naming a time: {touched['names a time']}, asking when: {touched['asks when']} "
          f"(per category, names / asks: " + ", ".join(f"{c} {v[1]}/{v[2]} of {v[0]}" for c, v in per_cat.items())
          + f"); turns whose own text names a time: {rows_said}")
    print(f"rule: {temporal.DEFAULT_RULE}\n")
    print(_head())
    results = {}
    for cfg in configs():
        results[cfg.name] = evaluate(dated if cfg.dated_text else data, cfg)
        print(_row(cfg.name, results[cfg.name]))
    a = results[configs()[0].name]
    print("\noffline default against bench.eval_levers' figures: " + ", ".join(
        f"{k} {a[k]:.3f} ({a[k] - v:+.3f})" for k, v in KNOWN.items()))
    if args.sensitivity:
        print("\nsensitivity: each constant moved alone, the others at the default rule\n" + _head())
        for cfg in sensitivity():
            print(_row(cfg.name, evaluate(data, cfg)))
    if args.loo:
        print("\nleave one conversation out: the grid's best rule on the other four, measured on the one held out")
        print(f"{'held out':10s} {'rule picked (boost, lag_days, states_boost)':44s} hit@10: picked / default rule / "
              "no dates    temporal hit@10: picked / default rule / no dates")
        for conv_id, rule, got, default, none in leave_one_out(data):
            print(f"{conv_id:10s} {rule.boost:<6g} {rule.lag_days:<6g} {rule.states_boost:<30g} "
                  + " / ".join(f"{x['hit@10']:.3f}" for x in (got, default, none)) + " " * 24
                  + " / ".join(f"{x['temporal hit@10']:.3f}" for x in (got, default, none)))
        print("\nthe occasion weight picked on four conversations, measured on the fifth")
        print(f"{'held out':10s} {'weight picked':14s} hit@10: picked / default ({D.occasion_weight:g}) / none")
        for conv_id, w, got, default, none in occasion_loo(data):
            print(f"{conv_id:10s} {w:<14g} " + " / ".join(f"{x['hit@10']:.3f}" for x in (got, default, none)))
    if args.cost:
        c = cost(args.cost)
        print(f"\ncost at {c['rows']:,} rows ({c['rows naming a time']:.1%} name a time): a copy built from rows "
              f"whose said was stored at save time {c['stored s']:.2f} s, resolving every text while building "
              f"{c['resolved s']:.2f} s: +{c['us per row']:.1f} µs a row (+{c['resolved s'] / c['stored s'] - 1:.0%}); "
              f"temporal.said_of at save {c['said_of us']:.1f} µs a row; load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
