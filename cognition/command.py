"""The `cognition` command: the service's own (service/cli). Installed with the client too (one distribution), so
where the service's extra is missing it says what to install instead of failing on an import."""

from __future__ import annotations

import sys


def main() -> int:
    try:
        from service.cli import main as run  # only where the server is installed
    except ModuleNotFoundError as exc:
        print(f"cognition: the service is not installed here ({exc.name} is missing); "
              "pip install 'cognition[server]'", file=sys.stderr)
        return 2
    return run()


if __name__ == "__main__":
    raise SystemExit(main())
