"""The Cognition service, in layers (each may import the ones below it, never one above; `make lint` checks):

- adapters: `cli` (the `cognition` command), `http` (the FastAPI app and routes), `mcp` (the MCP server), and
  `wire`, what the HTTP and MCP adapters share;
- `usecases`: the operations, on domain inputs, with the process's runtime;
- `search` (scope index, BM25, ranking, embedders) and `gates` (the write pipeline's screening);
- then `digest/`, `graph/` (all Neo4j access) and `cypher/` at the repository's top level.
"""

import time as _time

# When the service's code began to load: the start-up log line counts from here (service/http/app.py).
LOADED_AT = _time.perf_counter()
