"""A feed consumer for the soak (tests/soak.py): follows one namespace's event feed from the replicas in turn and
appends each page it reads, with the cursor after it, as one JSON line to a state file (flushed and fsynced before
the next read). Killed (SIGKILL) and started again, it resumes from the cursor of the last whole line: a line cut by
the kill is ignored, and its events are read again. So its file holds every event once, in feed order.

`python -m tests.feed_consumer STATE NAMESPACE KEY URL [URL …]`"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any


def read_state(path: Path) -> tuple[str | None, list[dict[str, Any]]]:
    """(the cursor to resume from, every event consumed), from the whole lines of the state file."""
    cursor: str | None = None
    events: list[dict[str, Any]] = []
    if not path.exists():
        return cursor, events
    for line in path.read_text().splitlines():
        try:
            page = json.loads(line)
        except ValueError:
            break  # the line a kill cut: nothing after it was written
        cursor = page["cursor"]
        events += page["events"]
    return cursor, events


def main(argv: list[str]) -> int:
    import httpx

    state, namespace, key, *urls = argv
    path = Path(state)
    cursor, _ = read_state(path)
    if path.exists():  # drop a cut last line, so the next append starts a whole one
        whole = [ln for ln in path.read_text().splitlines() if ln.strip()]
        keep = []
        for ln in whole:
            try:
                json.loads(ln)
            except ValueError:
                break
            keep.append(ln)
        path.write_text("".join(ln + "\n" for ln in keep))
    turn = 0
    with path.open("a") as out:
        while True:
            url = urls[turn % len(urls)]
            turn += 1
            try:
                r = httpx.get(f"{url}/v1/events", params={"namespace": namespace, "limit": 50,
                                                          **({"after": cursor} if cursor else {})},
                              headers={"Authorization": f"Bearer {key}"}, timeout=10.0)
            except httpx.HTTPError:
                time.sleep(0.2)
                continue
            if r.status_code != 200:
                time.sleep(0.2)
                continue
            page = r.json()
            if page["items"]:
                keep = [{k: e.get(k) for k in ("id", "position", "kind", "record_id", "scope_id")}
                        for e in page["items"]]
                out.write(json.dumps({"cursor": page["next"], "events": keep}) + "\n")
                out.flush()
                os.fsync(out.fileno())
            cursor = page["next"]
            if not page["more"]:
                time.sleep(0.2)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
