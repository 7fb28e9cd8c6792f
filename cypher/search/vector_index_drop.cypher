// Drop the vector index (when the configured embedder's size changed; it is re-created at once).
DROP INDEX artifact_embedding IF EXISTS
