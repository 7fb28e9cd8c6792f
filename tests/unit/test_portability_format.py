"""The `.cogx.jsonl` format without a database: deterministic lines, and a file that is not whole and intact is
refused before anything would be written."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.usecases.portability import peers
from service.usecases.portability.format import ImportRefused, build, encode, parse, revive

OBJS = [("scope", {"id": "s1", "name": "main", "created_at": "2026-01-02T03:04:05.000006+00:00"}),
        ("artifact", {"id": "a1", "content": "naïve 中文 ✓", "tags": ["b", "a"]}),
        ("event", {"id": "e1", "op": "save", "at": "2026-01-02T03:04:05+00:00"})]
FILE = build(OBJS)


def refused(data: bytes) -> str:
    with pytest.raises(ImportRefused) as info:
        parse([data])
    return info.value.code


def test_lines_are_deterministic_sorted_and_utf8() -> None:
    line = encode({"b": 1, "a": datetime(2026, 1, 2, tzinfo=UTC), "c": "中"})
    assert line == '{"a":"2026-01-02T00:00:00+00:00","b":1,"c":"中"}\n'.encode()
    assert build(OBJS) == FILE
    parsed = parse([FILE[:7], FILE[7:]])  # chunk boundaries do not matter
    assert parsed.manifest["counts"]["artifact"] == 1 and parsed.lines["artifact"][0]["content"] == "naïve 中文 ✓"
    assert revive({"at": "2026-01-02T03:04:05+00:00", "name": "2026-01-02"})["at"] == \
        datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_any_changed_byte_or_any_cut_is_refused(data: st.DataObject) -> None:
    i = data.draw(st.integers(0, len(FILE) - 1))
    new = data.draw(st.integers(0, 255).filter(lambda b: b != FILE[i]))
    changed = FILE[:i] + bytes([new]) + FILE[i + 1:]
    assert refused(changed) in ("import_checksum_mismatch", "import_manifest_invalid")
    cut = data.draw(st.integers(0, len(FILE) - 1))
    assert refused(FILE[:cut]) == "import_manifest_invalid"


def test_a_line_after_the_manifest_or_wrong_counts_are_refused() -> None:
    assert refused(FILE + encode({"type": "event", "id": "e2"})) == "import_manifest_invalid"
    *body, manifest = FILE.decode().splitlines(keepends=True)
    m = json.loads(manifest)
    m["counts"]["event"] = 2
    assert refused(("".join(body) + json.dumps(m) + "\n").encode()) == "import_manifest_invalid"
    m["counts"]["event"], m["version"] = 1, 99
    assert refused(("".join(body) + json.dumps(m) + "\n").encode()) == "import_manifest_invalid"


def test_peer_files_that_are_not_the_peer_shape_are_refused_with_a_code() -> None:
    for fmt, doc in (("mem0", {"results": [{"memory": "x", "metadata": [1]}]}), ("mem0", {"x": 1}),
                     ("mcp-neo4j-memory", {"entities": [1]}),
                     ("mcp-neo4j-memory", {"entities": [{"name": "a"}], "relations": [{"source": "a", "target": "b",
                                                                                       "relationType": "R"}]})):
        with pytest.raises(ImportRefused) as info:
            peers.convert(fmt, json.dumps(doc).encode(), cognitive_owner="o")
        assert info.value.code == "import_line_invalid"
    with pytest.raises(ImportRefused) as info:
        peers.convert("mem0", json.dumps([{"memory": "a", "user_id": "u1"}, {"memory": "b", "user_id": "u2"}]).encode())
    assert info.value.code == "import_owner_required"
