"""Settings, read from the environment (and a `.env` file when present)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, SecretStr
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
    # `cognition serve` worker processes on the one port (each its own driver, scope copies and warm-up).
    workers: int = Field(1, ge=1, le=64, alias="COGNITION_WORKERS")
    # API keys (service/usecases/access.py): this value, when set, is installed as the first operator key (holding every
    # namespace); otherwise one is generated and printed on the first start of an empty store.
    bootstrap_key: SecretStr | None = Field(None, alias="COGNITION_BOOTSTRAP_KEY")
    key_cache_ttl: float = Field(5.0, ge=0, alias="COGNITION_KEY_CACHE_TTL")  # s; a revoke lags this much
    max_body_bytes: int = Field(8 * 1024 * 1024, ge=1024, alias="COGNITION_MAX_BODY_BYTES")
    # Vector half of hybrid ranking (service/search/embedding.py): unset = embedding.DEFAULT_EMBEDDER (none: the
    # lexical ranking measured best on the LoCoMo dev split), "none", "use-multilingual" or "e5-small" (the
    # `embed` extra).
    embedder: str | None = Field(None, alias="COGNITION_EMBEDDER")
    # GC (digest/gc.py): per-partition cap on active memories, and TTL reclaims per run.
    gc_max_entries: int | None = Field(10_000, ge=0, alias="COGNITION_GC_MAX_ENTRIES")
    # The learned injection detector's cascade (service/gates/pipeline.py): the n-gram model refuses at or above
    # REFUSE_AT and asks the encoder at or above HOLD_AT; the encoder refuses at or above ENCODER_REFUSE_AT and
    # quarantines (pending, hold_reason suspected_injection) at or above ENCODER_HOLD_AT. Unset: the thresholds
    # training chose on its tune split (service/gates/detector_model.json, encoder_model.json). `make eval-gates`.
    injection_refuse_at: float | None = Field(None, ge=0.0, le=1.0, alias="COGNITION_INJECTION_REFUSE_AT")
    injection_hold_at: float | None = Field(None, ge=0.0, le=1.0, alias="COGNITION_INJECTION_HOLD_AT")
    # ... for a text of 500 characters or more (detector.LONG: the n-gram model's evidence is surer there)
    injection_long_hold_at: float | None = Field(None, ge=0.0, le=1.0, alias="COGNITION_INJECTION_LONG_HOLD_AT")
    # ... for a shorter text in Chinese (detector.chinese: at least half its characters CJK ideographs)
    injection_chinese_hold_at: float | None = Field(None, ge=0.0, le=1.0,
                                                    alias="COGNITION_INJECTION_CHINESE_HOLD_AT")
    # ... and from which it asks the encoder about a short English line (20-39 characters), held at SHORT_HOLD_AT
    injection_short_ask_at: float | None = Field(None, ge=0.0, le=1.0, alias="COGNITION_INJECTION_SHORT_ASK_AT")
    # ... and below which the lite classifier lets a text the n-gram model routes pass without the encoder (English-like
    # text under 500 characters: pipeline.lite_reads); 0 asks the encoder about every one
    injection_lite_ask_at: float | None = Field(None, ge=0.0, le=1.0, alias="COGNITION_INJECTION_LITE_ASK_AT")
    injection_encoder_refuse_at: float | None = Field(None, ge=0.0, le=1.0,
                                                      alias="COGNITION_INJECTION_ENCODER_REFUSE_AT")
    injection_encoder_hold_at: float | None = Field(None, ge=0.0, le=1.0, alias="COGNITION_INJECTION_ENCODER_HOLD_AT")
    # ... and quarantines a short line in Chinese (20-39 characters, a CJK character counting three) at or above this,
    # and a short English line the n-gram model scores at SHORT_ASK_AT or more (in a language the n-gram model does
    # not know, at ENCODER_HOLD_AT; the n-gram model holds a short English line at REFUSE_AT); nothing refuses a
    # short line
    injection_short_hold_at: float | None = Field(None, ge=0.0, le=1.0, alias="COGNITION_INJECTION_SHORT_HOLD_AT")
    gc_ttl_batch: int = Field(500, ge=1, alias="COGNITION_GC_TTL_BATCH")
    # Neo4j Browser (service/http/browser_guide): the Browser `cognition explain` and the cleanup view link to
    # (default: the managed instance's, else port 7474 on the Bolt host), and origins besides loopback allowed to
    # fetch the auditor's guide (comma-separated). The guide's own URL: COGNITION_BROWSER_GUIDE_URL
    # (service/neo4j_local).
    browser_url: str | None = Field(None, alias="COGNITION_BROWSER_URL")
    browser_origins: str = Field("", alias="COGNITION_BROWSER_ORIGINS")
    # Plan the context and search queries at start-up, in the background, on a scope no one holds
    # (service/usecases/warmup.py): an agent's first context call after a Neo4j restart does not wait for its plan.
    warm_plans: bool = Field(True, alias="COGNITION_WARM_PLANS")
    # Who enforces the scope invariants (graph/schema.py, docs/operations.md): "trigger" (the APOC before-commit
    # trigger, which also refuses raw Cypher: required, start-up fails without it), "queries" (the service's write
    # queries and the database's constraints only: for servers without APOC triggers, such as the managed Neo4j
    # service), or "auto" (the trigger where the server allows it, else queries).
    scope_guard: Literal["auto", "trigger", "queries"] = Field("auto", alias="COGNITION_SCOPE_GUARD")
    # The in-process scope copies search and context rank on (service/search/scope_index.py): MiB they may hold
    # together, least recently used dropped first (a copy larger than this alone is still kept while it is used).
    scope_copies_mb: int = Field(1024, ge=1, alias="COGNITION_SCOPE_COPIES_MB")
    # Rate limits (service/usecases/limits.py): requests a second per API key and per namespace, reads and writes
    # apart (0 = no limit); each a token bucket holding `rate × COGNITION_RATE_BURST_S` tokens. Replicas on one Neo4j
    # share each limit (rate ÷ live replicas), the count from a heartbeat every COGNITION_RATE_HEARTBEAT_S.
    rate_key_reads: float = Field(0.0, ge=0, alias="COGNITION_RATE_KEY_READS")
    rate_key_writes: float = Field(0.0, ge=0, alias="COGNITION_RATE_KEY_WRITES")
    rate_namespace_reads: float = Field(0.0, ge=0, alias="COGNITION_RATE_NAMESPACE_READS")
    rate_namespace_writes: float = Field(0.0, ge=0, alias="COGNITION_RATE_NAMESPACE_WRITES")
    rate_burst_s: float = Field(10.0, gt=0, alias="COGNITION_RATE_BURST_S")
    rate_heartbeat_s: float = Field(5.0, ge=1, alias="COGNITION_RATE_HEARTBEAT_S")
    # The event feed (docs/events.md): how often each replica numbers newly committed events (s; 0 = only when the
    # feed is read).
    events_sequence_s: float = Field(0.15, ge=0, alias="COGNITION_EVENTS_SEQUENCE_S")
    # Webhooks (docs/events.md#webhooks): how often each replica looks for due webhooks, how long a receiver may
    # take, the retry backoff (doubling from BACKOFF_S up to BACKOFF_MAX_S), a worker's lease on a webhook, and the
    # most events one delivery round sends.
    webhook_poll_s: float = Field(0.5, ge=0, alias="COGNITION_WEBHOOK_POLL_S")  # 0 = no delivery worker here
    webhook_timeout_s: float = Field(10.0, gt=0, alias="COGNITION_WEBHOOK_TIMEOUT_S")
    webhook_backoff_s: float = Field(1.0, gt=0, alias="COGNITION_WEBHOOK_BACKOFF_S")
    webhook_backoff_max_s: float = Field(600.0, gt=0, alias="COGNITION_WEBHOOK_BACKOFF_MAX_S")
    webhook_lease_s: float = Field(60.0, gt=0, alias="COGNITION_WEBHOOK_LEASE_S")
    webhook_batch: int = Field(100, ge=1, le=1000, alias="COGNITION_WEBHOOK_BATCH")
