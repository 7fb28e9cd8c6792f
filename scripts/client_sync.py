"""Generate the synchronous client (cognition/client/sync.py) from the asynchronous one (cognition/client/aio.py)
with unasync: `async` and `await` are dropped, async dunders and iterators become their sync twins, and the
`Async…` names below become the plain ones. `make client-sync` runs it; tests/unit/test_client_sync.py fails
when sync.py is not what this makes of aio.py."""

from __future__ import annotations

import sys
from pathlib import Path

import tokenize_rt
import unasync

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "cognition" / "client" / "aio.py"
TARGET = ROOT / "cognition" / "client" / "sync.py"
NAMES = {
    "AsyncCognition": "Cognition", "AsyncFamily": "Family", "AsyncScopes": "Scopes", "AsyncKernels": "Kernels",
    "AsyncEdges": "Edges", "AsyncDigest": "Digest", "AsyncEvents": "Events", "AsyncWebhooks": "Webhooks",
    "AsyncCore": "SyncCore", "AsyncBaseTransport": "BaseTransport",
}
HEADER = "# Generated from cognition/client/aio.py by scripts/client_sync.py (`make client-sync`): do not edit.\n"


def generate(source: str) -> str:
    rule = unasync.Rule("/", "/", additional_replacements=NAMES)
    tokens = list(rule._unasync_tokens(tokenize_rt.src_to_tokens(source)))
    return HEADER + tokenize_rt.tokens_to_src(tokens)


def main() -> int:
    TARGET.write_text(generate(SOURCE.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
