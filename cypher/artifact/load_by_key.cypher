// Load the record a caller's key names in a scope (artifact/load.cypher, by key instead of id). A load is a
// recall: recall_count + 1 and accessed_at = now, in the same transaction (pending rows are returned but never
// counted). Revision and ETag unchanged. Params: $scope_id, $key, $families, $now
// Concurrency rule (lock by write, then read; see artifact/update.cypher): the count is incremented from the value
// read after the write lock, so N concurrent loads add N. A record deleted while this waited for its lock is a
// tombstone after it (no :Artifact label): nothing is answered.
// guards: a.recall_count, a.status
OPTIONAL MATCH (a:Artifact {scope_id: $scope_id, key: $key}) WHERE a.family IN $families
SET a._lock = true
WITH CASE WHEN a:Artifact THEN a END AS a, apoc.any.properties(a) AS locked
REMOVE a._lock
WITH a, locked
FOREACH (_ IN CASE WHEN a IS NOT NULL AND locked.status <> 'pending' THEN [1] ELSE [] END |
  SET a.recall_count = coalesce(locked.recall_count, 0) + 1, a.accessed_at = $now)
RETURN {{ARTIFACT_ROW}} AS artifact
