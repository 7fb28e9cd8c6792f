"""The write pipeline's screening gates, in their fixed order (DESIGN.md §4):

    validate (pydantic, before this module) → threat scan → content quality → write approval → embed → persist

Threat scan and content quality run here, stage by stage over the whole batch, so a text that is both a
threat and an engine-state dump reports the threat. Write approval is evaluated inside the persist
transaction (cypher/artifact/save.cypher) against the scope's policy read in that same round trip.
There is no parameter, setting or role that skips a gate.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from graph.errors import CognitionError
from graph.model import Family
from service import observability
from service.gates.quality import check_quality
from service.gates.threat import scan


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


class GateRefusal(CognitionError):
    """A gate refused a write. Carries the rule and where, never the content."""

    def __init__(self, code: str, rule: str, *, field_name: str, index: int, offset: int | None,
                 content_sha256: str, message: str) -> None:
        details: dict[str, object] = {"rule_id": rule, "field": field_name, "index": index}
        if offset is not None:
            details["offset"] = offset
        super().__init__(message, code=code, status=422, details=details)
        observability.gate_refused(code, rule)  # refusals by rule, for /metrics
        self.rule = rule
        self.field_name = field_name
        self.content_sha256 = content_sha256


def screen(candidates: Sequence[Candidate]) -> None:
    """Run the threat scan, then the content-quality gate; raise the first refusal."""
    for i, c in enumerate(candidates):
        for name, text in c.texts.items():
            hit = scan(text)
            if hit is not None:
                raise GateRefusal("threat_pattern_detected", hit.rule_id, field_name=name, index=i,
                                  offset=hit.offset, content_sha256=c.fingerprint(),
                                  message=f"refused by the threat scan ({hit.rule_id}) in {name} at "
                                          f"character {hit.offset}")
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
