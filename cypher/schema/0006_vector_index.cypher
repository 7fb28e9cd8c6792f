// Vector search support. The vector index itself is sized to the configured embedder, which a migration cannot
// know, so it is created at start-up from Python (service/search/embedding.ensure_vector_index runs
// search/vector_index_create.cypher with $dimensions), and only when an embedder is configured — with none,
// nothing here needs one. What does not depend on the embedder is here: the range index behind "this scope's
// rows embedded by model X" (the exact vector scan's candidates) and the re-embedding backfill.
// Idempotent: IF NOT EXISTS.
CREATE INDEX artifact_scope_embedding_model IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.embedding_model);
