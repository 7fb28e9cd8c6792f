// API keys. A key is stored only as the SHA-256 of its secret; the hash is what a request is
// looked up by, so it is unique (and indexed by its constraint). The bootstrap marker is a singleton that
// serialises "generate the first operator key once" across concurrently starting service processes.
CREATE CONSTRAINT api_key_id_unique IF NOT EXISTS FOR (k:ApiKey) REQUIRE k.id IS UNIQUE;
CREATE CONSTRAINT api_key_hash_unique IF NOT EXISTS FOR (k:ApiKey) REQUIRE k.key_hash IS UNIQUE;
CREATE CONSTRAINT api_key_bootstrap_unique IF NOT EXISTS FOR (b:ApiKeyBootstrap) REQUIRE b.id IS UNIQUE;
