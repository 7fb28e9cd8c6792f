"""docker-compose.yml stays correct: Neo4j 5.26 Community with APOC triggers on, the service waiting for it; and the
`cluster` profile: three Enterprise members, their licence accepted only by the user's own variable, a replica of
the service on them through the routing scheme."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def test_compose_file_declares_neo4j_with_apoc_triggers_and_the_service() -> None:
    doc = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    neo = doc["services"]["neo4j"]
    assert neo["image"] == "neo4j:5.26-community"
    env = neo["environment"]
    assert env["NEO4J_PLUGINS"] == '["apoc"]'
    assert env["NEO4J_apoc_trigger_enabled"] == "true"
    assert "healthcheck" in neo
    svc = doc["services"]["cognition"]
    assert svc["build"] == "."
    assert svc["depends_on"]["neo4j"]["condition"] == "service_healthy"
    assert svc["environment"]["NEO4J_URI"] == "bolt://neo4j:7687"
    assert (ROOT / "Dockerfile").exists()


def test_the_cluster_profile_declares_three_enterprise_members_and_a_routed_replica() -> None:
    doc = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    members = {name: svc for name, svc in doc["services"].items() if name.startswith("core")}
    assert sorted(members) == ["core1", "core2", "core3"]
    for name, svc in members.items():
        assert svc["image"] == "neo4j:5.26-enterprise" and svc["profiles"] == ["cluster"]
        env = svc["environment"]
        # accepted only by the user's own variable: the default refuses, so the image does not start
        assert env["NEO4J_ACCEPT_LICENSE_AGREEMENT"] == "${NEO4J_ACCEPT_LICENSE_AGREEMENT:-no}"
        assert env["NEO4J_apoc_trigger_enabled"] == "true"
        assert env["NEO4J_dbms_cluster_discovery_endpoints"] == "core1:5000,core2:5000,core3:5000"
        assert env["NEO4J_server_default__advertised__address"] == name
        assert "healthcheck" in svc
    replica = doc["services"]["cognition-cluster"]
    assert replica["profiles"] == ["cluster"] and replica["environment"]["NEO4J_URI"].startswith("neo4j://")
    assert set(replica["depends_on"]) == set(members)
    assert "profiles" not in doc["services"]["neo4j"]  # the default `docker compose up` is unchanged


def _compose() -> list[str]:
    cmd = (["docker", "compose"] if shutil.which("docker") and subprocess.run(
        ["docker", "compose", "version"], capture_output=True).returncode == 0 else
        ["docker-compose"] if shutil.which("docker-compose") else None)
    if cmd is None:
        pytest.skip("no Compose client on this machine: install Debian's docker-compose package (`apt-get install "
                    "docker-compose`, as .ci/run does) or Docker's compose plugin (the YAML checks above still ran)")
    return cmd


@pytest.mark.parametrize("profile", [[], ["--profile", "cluster"]], ids=["default", "cluster"])
def test_compose_config_validates(profile: list[str]) -> None:
    proc = subprocess.run([*_compose(), *profile, "config", "-q"], cwd=ROOT, capture_output=True, text=True,
                          env={"NEO4J_PASSWORD": "example-password", "PATH": "/usr/bin:/bin:/usr/local/bin"})
    assert proc.returncode == 0, proc.stderr
