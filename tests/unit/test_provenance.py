"""Provenance rules (service/gates/provenance.py): the default source by role, no claim above it, and the
Python mirror of the eager-arms predicate."""

from __future__ import annotations

import pytest

from graph.errors import Invalid
from graph.model import Source
from service.gates.provenance import eager_trusted_ok, resolve_source


def test_defaults_by_role() -> None:
    assert resolve_source(None, "operator") is Source.user
    assert resolve_source(None, "agent") is Source.agent


@pytest.mark.parametrize("declared", [Source.agent, Source.tool, Source.web, Source.import_])
def test_an_agent_may_lower_its_source(declared: Source) -> None:
    assert resolve_source(declared, "agent") is declared


def test_no_claim_above_the_role() -> None:
    with pytest.raises(Invalid) as exc:
        resolve_source(Source.user, "agent")
    assert exc.value.code == "source_not_permitted"
    assert all(resolve_source(s, "operator") is s for s in Source)


@pytest.mark.parametrize("source,approved,ok", [
    (None, None, True), ("user", None, True), ("agent", None, True),
    ("tool", None, False), ("web", None, False), ("import", None, False),
    ("tool", "key-1", True), ("import", "key-1", True),
])
def test_eager_trusted_ok(source: str | None, approved: str | None, ok: bool) -> None:
    assert eager_trusted_ok({"source": source, "approved_by": approved}) is ok
