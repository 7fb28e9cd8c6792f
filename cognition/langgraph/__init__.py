"""`cognition.langgraph`: `CognitionStore`, LangGraph's `BaseStore` on the Cognition service through the Python client
(`pip install 'cognition[langgraph]'`; docs/langgraph.md). Imports langgraph (langgraph-checkpoint), never the server.

- `store.py`: the store, its items and the quarantine error;
- `drive.py`: one description of each operation, run on the sync or the async client;
- `mapping.py`: namespaces, keys, values, TTLs and filters as LangGraph defines them, onto scopes and records."""

from cognition.langgraph.mapping import tier_for_ttl
from cognition.langgraph.store import CognitionItem, CognitionStore, WriteQuarantined

__all__ = ["CognitionItem", "CognitionStore", "WriteQuarantined", "tier_for_ttl"]
