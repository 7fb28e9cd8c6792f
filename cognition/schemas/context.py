"""The context call on the wire: a surface, an optional query, per-arm limits; the arms in answer order."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from cognition.schemas.records import ArtifactPublic, AsOf, KnownAt, Now, TimeView
from cognition.schemas.vocabulary import DEFAULT_LIMITS, MAX_LIMIT

ArmName = Literal["constraints", "instructions", "environment", "preferences", "recent_episodes",
                  "relevant_memories", "knowledge", "skills", "profile"]
Limit = Annotated[int, Field(ge=0, le=MAX_LIMIT)]


class ContextRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    surface: Literal["eager", "lazy", "cold_start", "all"] = Field(
        description="eager: constraints, instructions, environment, preferences, recent_episodes; "
                    "lazy: relevant_memories, knowledge, skills; cold_start: profile; all: the nine")
    query: Annotated[str, Field(max_length=1000)] | None = Field(
        None, description="drives relevant_memories (hybrid full-text + vector ranking); "
                          "without it that arm is empty")
    limits: dict[ArmName, Limit] = Field(
        default_factory=dict, description=f"per-arm item limits; defaults {DEFAULT_LIMITS}")
    as_of: AsOf = None
    known_at: KnownAt = None
    now: Now = None


class ContextResponse(BaseModel):
    arms: dict[str, list[ArtifactPublic]] = Field(
        description="each arm of the surface, in its order; every item passed RecallQualityOK and counted as "
                    "a recall")
    view: TimeView | None = None
