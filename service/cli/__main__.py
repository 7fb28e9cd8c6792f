"""`python -m service.cli`: the `cognition` command."""

from service.cli import main

raise SystemExit(main())
