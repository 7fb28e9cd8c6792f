"""`cognition cypher NAME`: the query the service runs, fragments substituted, for pasting into Browser."""

from __future__ import annotations

import pytest

import cypher
from service import cli


def test_prints_the_composed_query(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["cypher", "artifact/list"]) == 0
    out = capsys.readouterr().out
    assert out.strip() == cypher.compose("artifact/list").strip()
    assert "{{" not in out and "toString(ap.created_at)" in out  # ARTIFACT_ROW substituted


@pytest.mark.parametrize("name", ["artifact/nope", "../secrets", "Artifact/List"])
def test_an_unknown_name_is_refused(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["cypher", name]) == 2
    assert "no query named" in capsys.readouterr().err
