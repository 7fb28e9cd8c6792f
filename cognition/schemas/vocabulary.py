"""The words every surface shares: families, kinds, tiers, statuses, sources, edge types, and the fields the
service owns. Plain enums, no I/O: the server, the MCP tools and the client all import them from here."""

from __future__ import annotations

from enum import StrEnum


class Family(StrEnum):
    agent_kernel = "agent_kernel"
    world_kernel = "world_kernel"
    memory = "memory"
    knowledge = "knowledge"
    skill = "skill"
    working_state = "working_state"


class Kind(StrEnum):
    episodic = "episodic"
    semantic = "semantic"
    observational = "observational"
    preference = "preference"
    fact = "fact"
    constraint = "constraint"
    instruction = "instruction"
    environment = "environment"


class Tier(StrEnum):
    session = "session"
    working = "working"
    agent = "agent"
    role = "role"


class Status(StrEnum):
    pending = "pending"
    active = "active"
    archived = "archived"
    removed = "removed"


class Source(StrEnum):
    """Where a write's content came from (provenance). `user` and `agent` speak for the scope's owner; `tool`,
    `web` and `import` carry text somebody else wrote, so they never give orders unasked."""

    user = "user"
    agent = "agent"
    tool = "tool"
    web = "web"
    import_ = "import"


# Sources whose memories reach the eager constraints / instructions arms only once an operator approved them
# (cypher/fragments/eager_trusted_ok.cypher).
UNTRUSTED_SOURCES = frozenset({Source.tool, Source.web, Source.import_})


class EdgeType(StrEnum):
    """Relationships a caller may create between two artifacts of one scope. (`SUPERSEDES` is the
    service's own: written by supersession detection, never by a caller.)"""

    SUPPORTS = "SUPPORTS"
    DEPENDS_ON = "DEPENDS_ON"
    DERIVED_FROM = "DERIVED_FROM"
    RELATES_TO = "RELATES_TO"


# Computed and owned by the service: a caller that sets one gets 422 `service_owned_field`.
SERVICE_OWNED = frozenset({
    "recall_count", "accessed_at", "status", "stale", "conflicted", "revision",
    "support", "lineage", "invalidation", "cleanup",
    "approved_by", "approved_at", "hold_reason", "hold_score", "hold_layer",
})

# The context call's surfaces and their arms, in answer order.
SURFACES: dict[str, tuple[str, ...]] = {
    "eager": ("constraints", "instructions", "environment", "preferences", "recent_episodes"),
    "lazy": ("relevant_memories", "knowledge", "skills"),
    "cold_start": ("profile",),
}
SURFACES["all"] = SURFACES["eager"] + SURFACES["lazy"] + SURFACES["cold_start"]
ARMS = SURFACES["all"]
DEFAULT_LIMITS: dict[str, int] = {
    "constraints": 20, "instructions": 20, "environment": 10, "preferences": 10, "recent_episodes": 5,
    "relevant_memories": 8, "knowledge": 5, "skills": 5, "profile": 10,
}
MAX_LIMIT = 100  # an arm's largest limit
