// Approve a pending record: it becomes active (visible to list, search, recall and context), approved_by the
// operator (so an untrusted-source record approved here may reach the eager arms too). An event.
// Params: $scope_id, $id, $families, $now, $actor, $event_id, $reason
OPTIONAL MATCH (a:Artifact {id: $id}) WHERE a.scope_id = $scope_id AND a.family IN $families
WITH a, a.status AS was
OPTIONAL CALL (a, was) {
  WITH a WHERE was = 'pending'
  SET a.status = 'active', a.updated_at = $now, a.accessed_at = $now, a.approved_by = $actor, a.approved_at = $now
  CREATE (:Event {id: $event_id, op: 'approve', at: $now, actor: $actor, scope_id: a.scope_id, artifact_id: a.id,
                  family: a.family, reason: $reason})
  RETURN a {.*, embedding: null, relations: [(a)-[r:RELATES_TO]->(b) | {type: r.type, to_id: b.id}]} AS approved
}
RETURN a IS NOT NULL AS found, was, approved
