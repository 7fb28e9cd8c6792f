// Explicit, destructive delete. Refused while active artifacts depend on the target (DEPENDS_ON,
// DERIVED_FROM) unless $detach; then the node becomes a :Tombstone {id, scope_id, family, removed_at,
// removed_by, reason} that its dependents still point at (a broken reference the digest sees). Its
// revisions (and their content) are deleted. Kernels are never deleted here. Always an event.
// Params: $scope_id, $id, $families, $detach, $now, $actor, $reason, $event_id
OPTIONAL MATCH (a:Artifact {id: $id}) WHERE a.scope_id = $scope_id AND a.family IN $families
WITH a, [(d:Artifact)-[:DEPENDS_ON|DERIVED_FROM]->(a) WHERE d.status = 'active' | d.id] AS dependents
WITH a, dependents, a IS NOT NULL AND NOT a.family IN ['agent_kernel', 'world_kernel']
                    AND (size(dependents) = 0 OR $detach) AS go
OPTIONAL CALL (a, go, dependents) {
  WITH a WHERE go
  OPTIONAL MATCH (a)-[:HAS_REVISION]->(r:Revision)
  WITH a, collect(r) AS revisions
  FOREACH (r IN revisions | DETACH DELETE r)
  WITH a, a.family AS family
  REMOVE a:Artifact:Memory:Knowledge:Skill:WorkingState
  SET a:Tombstone
  SET a = {id: a.id, scope_id: a.scope_id, family: family, status: 'removed', removed_at: $now,
           removed_by: $actor, reason: $reason}
  CREATE (:Event {id: $event_id, op: 'delete', at: $now, actor: $actor, scope_id: a.scope_id, artifact_id: a.id,
                  family: family, reason: $reason, detached: dependents})
  RETURN true AS deleted
}
RETURN a IS NOT NULL AS found, a.family AS family, dependents, coalesce(deleted, false) AS deleted
