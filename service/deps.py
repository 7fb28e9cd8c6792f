"""Request dependencies: the process's one Graph, the acting principal, the clock."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from fastapi import Depends, Header, Request

from graph.driver import Graph


def get_graph(request: Request) -> Graph:
    graph: Graph = request.app.state.graph
    return graph


def get_actor(x_actor: Annotated[str | None, Header(max_length=200)] = None) -> str:
    # Until API keys exist (see the tenants issue) the caller may name itself for the audit trail.
    return x_actor or "anonymous"


def utcnow() -> datetime:
    return datetime.now(UTC)


GraphDep = Annotated[Graph, Depends(get_graph)]
ActorDep = Annotated[str, Depends(get_actor)]
