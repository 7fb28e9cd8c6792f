"""Cognition's Python surfaces for callers of the service: `cognition.client` (sync and async HTTP client)."""
