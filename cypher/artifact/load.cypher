// Load by id within a scope. A load is a recall: recall_count + 1 and accessed_at = now, in the same
// transaction (pending rows are returned to their owner but never counted). Revision and ETag unchanged.
// An id from another scope matches nothing. Params: $scope_id, $id, $families, $now
// Concurrency rule (lock by write, then read; see artifact/update.cypher): the count is incremented from the
// value read after the write lock, so N concurrent loads add N (a plain `a.recall_count + 1` was planned
// against a value cached before any lock, and concurrent loads lost counts).
// guards: a.recall_count, a.status
OPTIONAL MATCH (a:Artifact {id: $id}) WHERE a.scope_id = $scope_id AND a.family IN $families
SET a._lock = true
WITH CASE WHEN a:Artifact THEN a END AS a, apoc.any.properties(a) AS locked
REMOVE a._lock
WITH a, locked
OPTIONAL MATCH (t:Tombstone {id: $id}) WHERE t.scope_id = $scope_id AND t.family IN $families
FOREACH (_ IN CASE WHEN a IS NOT NULL AND locked.status <> 'pending' THEN [1] ELSE [] END |
  SET a.recall_count = coalesce(locked.recall_count, 0) + 1, a.accessed_at = $now)
RETURN {{ARTIFACT_ROW}} AS artifact, t {.*} AS tombstone
