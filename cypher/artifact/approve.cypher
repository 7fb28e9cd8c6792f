// Approve a pending record: it becomes active (visible to list, search, recall and context), approved_by the
// operator (so an untrusted-source record approved here may reach the eager arms too). An event.
// Params: $scope_id, $id, $families, $now, $actor, $event_id, $reason
// Concurrency rule (lock by write, then read; see artifact/update.cypher): `SET a._lock` takes the write lock and
// the status is read after it through apoc.any.properties(a), so of concurrent approve / reject / restore / update / digest
// writes on one record each sees the one committed before it: one approve or one reject wins, never both.
// guards: a.status, a.updated_at
OPTIONAL MATCH (a:Artifact {id: $id}) WHERE a.scope_id = $scope_id AND a.family IN $families
SET a._lock = true
WITH a, apoc.any.properties(a) AS locked
REMOVE a._lock
WITH a, locked.status AS was, {{CHANGE_AT}} AS at
OPTIONAL CALL (a, was, at) {
  WITH a, at WHERE was = 'pending'
  SET a.status = 'active', a.updated_at = at, a.accessed_at = $now, a.approved_by = $actor, a.approved_at = at
  CREATE (feed_ev:Event:Unsequenced {id: $event_id, op: 'approve',
           at: at, actor: $actor, scope_id: a.scope_id, artifact_id: a.id,
                  family: a.family, reason: $reason})
  SET feed_ev.namespace = COLLECT { MATCH (ns_s:Scope {id: feed_ev.scope_id}) RETURN ns_s.namespace }[0],
      feed_ev.db_at = datetime.realtime()
  RETURN a {.*, embedding: null, relations: [(a)-[r:RELATES_TO]->(b) | {type: r.type, to_id: b.id}]} AS approved
}
RETURN a IS NOT NULL AS found, was, approved
