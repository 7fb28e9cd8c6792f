"""Content-quality gate, run after the threat scan.

Agents sometimes dump their internal engine state (plans, task trackers,
sub-agent hand-offs) into long-term memory. That state is transient and goes
stale quickly, so it is refused everywhere except the "working" tier, which
exists precisely to hold short-lived scratch state.
"""

from __future__ import annotations

__all__ = ["ENGINE_STATE_PREFIXES", "RULE_ENGINE_STATE_DUMP", "WORKING_TIER", "check_quality"]

ENGINE_STATE_PREFIXES = ("PLAN_STATE:", "TASK_STATE:", "SUBAGENT_RESULT:")
RULE_ENGINE_STATE_DUMP = "quality.engine_state_dump"
WORKING_TIER = "working"


def _first_text(content: str) -> str:
    """Drop leading whitespace and BOMs (str.isspace() is False for U+FEFF)."""
    i = 0
    while i < len(content) and (content[i].isspace() or content[i] == "\ufeff"):
        i += 1
    return content[i:]


def check_quality(content: str, tier: str | None) -> str | None:
    """Return a rule id ("quality.engine_state_dump") or None."""
    if tier == WORKING_TIER:
        return None
    # Case-sensitive on purpose: the engine emits exactly these markers, while
    # prose such as "Plan state: ..." is ordinary content.
    if _first_text(content).startswith(ENGINE_STATE_PREFIXES):
        return RULE_ENGINE_STATE_DUMP
    return None
