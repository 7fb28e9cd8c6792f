"""`cognition serve` with several worker processes (COGNITION_WORKERS): the workers share the port, each with its
own driver and scope copies, and a write acknowledged by one is seen by the next request whichever worker takes
it (the scope copies are versioned in Neo4j and brought up to date in each call's own transaction)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from graph.driver import Neo4jConfig
from tests.conftest import BOOTSTRAP_KEY, unique
from tests.served import Served


def test_two_workers_serve_and_each_reads_the_others_writes(neo4j_config: Neo4jConfig, client: TestClient,
                                                             tmp_path: Path) -> None:
    served = Served(neo4j_config, BOOTSTRAP_KEY, extra_env={"COGNITION_WORKERS": "2"}, log=tmp_path / "serve.log")
    served.start()
    try:
        workers = served.workers()
        assert len(workers) == 2, (workers, served.tail())
        headers = served.headers()
        r = httpx.post(f"{served.url}/v1/scopes", headers=headers,
                       json={"namespace": unique("ns"), "cognitive_owner": "workers", "name": "s"})
        assert r.status_code == 201, r.text
        scope = r.json()["id"]
        for i in range(24):
            word = f"zorblat{i}x"
            # a fresh connection for each request, so the kernel hands them to either worker
            saved = httpx.post(f"{served.url}/v1/scopes/{scope}/memories", headers=headers,
                               json={"kind": "fact", "tier": "agent", "content": f"the {word} is in the red box"})
            assert saved.status_code == 201, saved.text
            found = httpx.post(f"{served.url}/v1/scopes/{scope}/memories/search", headers=headers,
                               json={"query": word})
            assert found.status_code == 200, found.text
            assert [h["id"] for h in found.json()["items"]] == [saved.json()["id"]], (i, found.json())
        assert not any("Traceback" in line for line in served.tail(400).splitlines()), served.tail()
    finally:
        served.stop()
    assert served.proc is not None and served.proc.poll() is not None


@pytest.mark.parametrize("bad", ["0", "65", "many"])
def test_a_worker_count_out_of_range_is_refused(bad: str, tmp_path: Path) -> None:
    from pydantic import ValidationError

    from service.settings import Settings

    with pytest.raises(ValidationError):
        Settings(COGNITION_WORKERS=bad)  # type: ignore[call-arg]
