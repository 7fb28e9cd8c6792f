"""The write pipeline's screening gates, in their fixed order (docs/security.md):

    validate (pydantic, before this module) → threat scan → content quality → write approval → embed → persist

Threat scan and content quality run here, stage by stage over the whole batch, so a text that is both a
threat and an engine-state dump reports the threat. Write approval is evaluated inside the persist
transaction (cypher/artifact/save.cypher) against the scope's policy read in that same round trip.
There is no parameter, setting or role that skips a gate.

The threat scan has layers: invisible Unicode and pattern families refuse outright; then the
learned detector (service/gates/detector.py) scores each caller text long enough to judge
(`detector.long_enough`: 40 characters, a CJK character counting three): at or
above `refuse_at` the write is refused like any threat (rule `learned.injection`); at or above `hold_at` the
record is stored `pending` with `hold_reason: suspected_injection` and its score — quarantined, invisible to
list, search, recall and context until an operator approves it. The thresholds are settings
(COGNITION_INJECTION_REFUSE_AT / _HOLD_AT); the scan itself has no switch.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from graph.errors import Invalid
from graph.model import Family
from service import metrics
from service.gates import detector
from service.gates.quality import check_quality
from service.gates.threat import scan_normal

HOLD_REASON = "suspected_injection"
LEARNED_RULE = "learned.injection"


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The learned detector's two cuts: refuse at or above `refuse_at`, quarantine at or above `hold_at`."""

    refuse_at: float
    hold_at: float

    @classmethod
    def of(cls, refuse_at: float | None = None, hold_at: float | None = None) -> Thresholds:
        """The thresholds a setting names (None: the ones training chose on its tune split)."""
        default_refuse, default_hold = detector.recommended()
        refuse_at = default_refuse if refuse_at is None else refuse_at
        hold_at = default_hold if hold_at is None else hold_at
        if not 0.0 <= hold_at <= refuse_at <= 1.0:
            raise ValueError("injection thresholds need 0 <= hold_at <= refuse_at <= 1")
        return cls(refuse_at, hold_at)


def threat_decision(text: str, thresholds: Thresholds) -> str:
    """What the threat scan makes of one text: "refuse", "hold" or "pass" (for the evaluation script)."""
    hit, norm = scan_normal(text)
    if hit is not None:
        return "refuse"
    if not detector.long_enough(text):
        return "pass"
    p = detector.score(text, norm)
    if p >= thresholds.refuse_at:
        return "refuse"
    return "hold" if p >= thresholds.hold_at else "pass"


@dataclass(frozen=True, slots=True)
class Candidate:
    """What a write wants to store, reduced to what the gates read."""

    family: Family
    tier: str | None
    content: str
    texts: dict[str, str] = field(default_factory=dict)  # every caller-supplied text, by field name

    def fingerprint(self) -> str:
        """SHA-256 of everything the caller sent as text: the only trace a refused write may leave."""
        canonical = json.dumps(self.texts, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class GateRefusal(Invalid):
    """A gate refused a write. Carries the rule and where, never the content."""

    def __init__(self, code: str, rule: str, *, field_name: str, index: int, offset: int | None,
                 content_sha256: str, message: str) -> None:
        details: dict[str, object] = {"rule_id": rule, "field": field_name, "index": index}
        if offset is not None:
            details["offset"] = offset
        super().__init__(message, code=code, details=details)
        metrics.gate_refused(code, rule)  # refusals by rule, for /metrics
        self.rule = rule
        self.field_name = field_name
        self.content_sha256 = content_sha256


def screen(candidates: Sequence[Candidate], limits: Thresholds) -> dict[int, float]:
    """Run the threat scan, then the content-quality gate; raise the first refusal. Returns the candidates
    the learned detector holds (index -> score): the caller stores those `pending` (quarantine)."""
    holds: dict[int, float] = {}
    for i, c in enumerate(candidates):
        for name, text in c.texts.items():
            hit, norm = scan_normal(text)  # NFKC + casefold once, for the scan and the detector
            if hit is not None:
                raise GateRefusal("threat_pattern_detected", hit.rule_id, field_name=name, index=i,
                                  offset=hit.offset, content_sha256=c.fingerprint(),
                                  message=f"refused by the threat scan ({hit.rule_id}) in {name} at "
                                          f"character {hit.offset}")
            if not detector.long_enough(text):
                continue
            p = detector.score(text, norm)
            if p >= limits.refuse_at:
                raise GateRefusal("threat_pattern_detected", LEARNED_RULE, field_name=name, index=i, offset=None,
                                  content_sha256=c.fingerprint(),
                                  message=f"refused by the threat scan ({LEARNED_RULE}, score {p:.2f}) in {name}")
            if p >= limits.hold_at:
                holds[i] = round(max(p, holds.get(i, 0.0)), 4)
    for i, c in enumerate(candidates):
        # Working state is the scratchpad where engine state belongs; the design exempts the working tier.
        if c.family is Family.working_state:
            continue
        rule = check_quality(c.content, c.tier)
        if rule is not None:
            raise GateRefusal("content_quality_rejected", rule, field_name="content", index=i, offset=None,
                              content_sha256=c.fingerprint(),
                              message="refused by the content-quality gate: engine-state dumps "
                                      "(PLAN_STATE:, TASK_STATE:, SUBAGENT_RESULT:) are not memory")
    return holds
