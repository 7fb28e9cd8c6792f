"""`make eval-gates`: the write pipeline's injection defence measured on the held-apart split of the public
corpora (scripts/injection_corpus.py; those groups were not used in training). Every text goes through the
same decision a save makes (service.gates.pipeline.threat_decision: invisible Unicode and pattern families refuse,
the learned detector refuses above `refuse_at` and holds above `hold_at`), with the thresholds in the
settings. Reports attacks refused / quarantined and benign refused / quarantined, per family and per
language, and checks the targets: attacks refused or quarantined >= 95%; benign refused <= 0.5%, quarantined
<= 3%. Exit status 1 when a target is missed."""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import injection_corpus as corpus  # noqa: E402

from service.gates.pipeline import Thresholds, threat_decision  # noqa: E402
from service.settings import Settings  # noqa: E402

SHARED_SOURCES = ("locomo", "shared-seeds")  # the corpus sources read from ../shared/ (scripts/injection_corpus.py)


def main() -> int:
    settings = Settings()
    thresholds = Thresholds.of(settings.injection_refuse_at, settings.injection_hold_at)
    refuse_at, hold_at = thresholds.refuse_at, thresholds.hold_at
    rows = [r for r in corpus.load() if corpus.evaluated(r)]
    table: dict[tuple[int, str, str], list[int]] = defaultdict(lambda: [0, 0, 0])  # n, refused, held
    for r in rows:
        verdict = threat_decision(r.text, thresholds)
        for key in ((r.label, "family", f"{r.source}/{r.family}"), (r.label, "language", r.lang),
                    (r.label, "all", "all")):
            cell = table[key]
            cell[0] += 1
            cell[1] += verdict == "refuse"
            cell[2] += verdict == "hold"
    print(f"held-apart rows: {len(rows)}  (thresholds: refuse >= {refuse_at}, hold >= {hold_at})\n")
    for label, name in ((1, "attacks"), (0, "benign and hard negatives")):
        print(f"### {name}\n\n| by | group | n | refused | quarantined | passed |\n|---|---|---|---|---|---|")
        for (lab, by, group), (n, ref, held) in sorted(table.items(), key=lambda kv: (kv[0][1] != "all",
                                                                                       kv[0][1], kv[0][2])):
            if lab == label:
                print(f"| {by} | {group} | {n} | {ref} ({ref / n:.1%}) | {held} ({held / n:.1%}) | "
                      f"{n - ref - held} ({(n - ref - held) / n:.1%}) |")
        print()
    n, ref, held = table[(1, "all", "all")]
    bn, bref, bheld = table[(0, "all", "all")]
    checks = [("attacks refused or quarantined >= 95%", (ref + held) / n >= 0.95, (ref + held) / n),
              ("benign refused <= 0.5%", bref / bn <= 0.005, bref / bn),
              ("benign quarantined <= 3%", bheld / bn <= 0.03, bheld / bn)]
    for what, ok, value in checks:
        print(f"{'PASS' if ok else 'FAIL'}  {what}: {value:.2%}")
    # The benign rows read from ../shared (LoCoMo turns, the design seeds) are there only when that folder sits
    # beside the checkout, and they are easy negatives: the same figure without them, so a reader sees both.
    own = [(n, ref, held) for (lab, by, group), (n, ref, held) in table.items()
           if lab == 0 and by == "family" and group.split("/")[0] not in SHARED_SOURCES]
    on, oref, oheld = (sum(x[i] for x in own) for i in range(3))
    if on and on != bn:
        print(f"info  without the {bn - on} benign rows from ../shared: refused {oref / on:.2%}, "
              f"quarantined {oheld / on:.2%} of {on}")
    return 0 if all(ok for _, ok, _ in checks) else 1


if __name__ == "__main__":
    raise SystemExit(main())
