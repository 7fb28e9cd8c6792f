"""The use cases: every operation the adapters offer, on domain inputs (drafts, changes, the actor) and the
process's runtime (runtime.py); one transaction each. No HTTP status, header or cursor below this line."""
