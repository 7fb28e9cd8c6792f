// Approve a pending record: it becomes active (visible to list, search, recall and context), approved_by the
// operator (so an untrusted-source record approved here may reach the eager arms too). An event.
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
  WITH a WHERE was = 'pending'
  SET a.status = 'active', a.updated_at = $now, a.accessed_at = $now, a.approved_by = $actor, a.approved_at = $now
  CREATE (:Event {id: $event_id, op: 'approve', at: $now, actor: $actor, scope_id: a.scope_id, artifact_id: a.id,
                  family: a.family, reason: $reason})
  RETURN a {.*, embedding: null, relations: [(a)-[r:RELATES_TO]->(b) | {type: r.type, to_id: b.id}]} AS approved
}
RETURN a IS NOT NULL AS found, was, approved
