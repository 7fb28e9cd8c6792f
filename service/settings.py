"""Settings, read from the environment (and a `.env` file when present)."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    # With NEO4J_URI set, that server is used and no local one is started.
    neo4j_uri: str | None = None
    neo4j_user: str = "neo4j"
    neo4j_password: str | None = None
    neo4j_database: str = "neo4j"

    host: str = Field("127.0.0.1", alias="COGNITION_HOST")
    port: int = Field(8080, alias="COGNITION_PORT")
    apply_schema_on_start: bool = Field(True, alias="COGNITION_APPLY_SCHEMA")
