"""Tests for the content-quality gate (service.gates.quality)."""

from __future__ import annotations

import pytest

from service.gates.quality import ENGINE_STATE_PREFIXES, check_quality

RULE = "quality.engine_state_dump"


def test_prefixes_are_exactly_the_engine_markers() -> None:
    assert ENGINE_STATE_PREFIXES == ("PLAN_STATE:", "TASK_STATE:", "SUBAGENT_RESULT:")


@pytest.mark.parametrize("prefix", ENGINE_STATE_PREFIXES)
@pytest.mark.parametrize("lead", ["", "  ", "\n\t", "\ufeff", "\ufeff \r\n", "\u3000"])
@pytest.mark.parametrize("tier", [None, "long_term", "episodic", "Working"])
def test_engine_state_prefix_refused(prefix: str, lead: str, tier: str | None) -> None:
    assert check_quality(f"{lead}{prefix} step 3 of 7, pending=[a, b]", tier) == RULE


@pytest.mark.parametrize("prefix", ENGINE_STATE_PREFIXES)
def test_working_tier_is_exempt(prefix: str) -> None:
    assert check_quality(f"{prefix} scratch", "working") is None


@pytest.mark.parametrize(
    "content",
    [
        '{"PLAN_STATE:": "json key is fine", "steps": [1, 2]}',
        "```\nPLAN_STATE: inside a code block\n```",
        "def f():\n    return 'TASK_STATE: in code'\n",
        "The agent logged PLAN_STATE: halfway, which we fixed.",  # not at start
        "Note\nSUBAGENT_RESULT: on a later line",
        "plan_state: lower case is ordinary prose",
        "Plan state: ship Friday",
        "PLAN_STATE without colon",
        "",
        "   ",
    ],
)
def test_legitimate_content_passes(content: str) -> None:
    assert check_quality(content, None) is None
    assert check_quality(content, "long_term") is None
