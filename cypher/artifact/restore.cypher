// Restore an archived artifact to active (reversible archive). An event.
// Params: $scope_id, $id, $families, $now, $actor, $event_id, $reason
// Concurrency rule (lock by write, then read; see artifact/update.cypher): `SET a._lock` takes the write lock and
// the status is read after it through apoc.any.properties(a), so of concurrent approve / reject / restore / update / digest
// writes on one record each sees the one committed before it: one approve or one reject wins, never both.
// guards: a.status
OPTIONAL MATCH (a:Artifact {id: $id}) WHERE a.scope_id = $scope_id AND a.family IN $families
SET a._lock = true
WITH a, apoc.any.properties(a).status AS was
REMOVE a._lock
WITH a, was
OPTIONAL CALL (a, was) {
  WITH a WHERE was = 'archived'
  SET a.status = 'active', a.restored_at = $now, a.updated_at = $now
  REMOVE a.archived_at, a.archived_by
  CREATE (:Event {id: $event_id, op: 'restore', at: $now, actor: $actor, scope_id: a.scope_id, artifact_id: a.id,
                  family: a.family, reason: $reason})
  RETURN a {.*, embedding: null, relations: [(a)-[r:RELATES_TO]->(b) | {type: r.type, to_id: b.id}]} AS restored
}
RETURN a IS NOT NULL AS found, was, restored
