// Explicit, destructive delete. Refused while active artifacts depend on the target (DEPENDS_ON,
// DERIVED_FROM) unless $detach; then the node becomes a :Tombstone {id, scope_id, family, removed_at,
// removed_by, reason} that its dependents still point at (a broken reference the digest sees). Its
// revisions (and their content) are deleted. Kernels are never deleted here. Always an event.
// Params: $scope_id, $id, $families, $detach, $now, $actor, $reason, $event_id
// Concurrency rule (lock by write, then read; see artifact/update.cypher): `SET a._lock` takes the write lock
// before the dependents are read, and edge creation (artifact/edge_create.cypher) locks both of its ends the same
// way and re-checks them after: so a delete and a concurrent DEPENDS_ON / DERIVED_FROM to the same record
// serialise — either the edge exists first and the delete answers 409 has_dependents, or the delete commits
// first and the edge is refused (its end is a tombstone). Two concurrent deletes: one deletes, one finds a
// tombstone.
// guards: a.status, a.updated_at
OPTIONAL MATCH (a:Artifact {id: $id}) WHERE a.scope_id = $scope_id AND a.family IN $families
SET a._lock = true
WITH CASE WHEN a:Artifact THEN a END AS a, apoc.any.properties(a) AS locked
REMOVE a._lock
WITH a, {{CHANGE_AT}} AS at, [(d:Artifact)-[:DEPENDS_ON|DERIVED_FROM]->(a) WHERE d.status = 'active' | d.id] AS dependents
WITH a, at, dependents, a IS NOT NULL AND NOT a.family IN ['agent_kernel', 'world_kernel']
                        AND (size(dependents) = 0 OR $detach) AS go
OPTIONAL CALL (a, at, go, dependents) {
  WITH a, at WHERE go
  OPTIONAL MATCH (a)-[:HAS_REVISION]->(r:Revision)
  WITH a, at, collect(r) AS revisions
  FOREACH (r IN revisions | DETACH DELETE r)
  WITH a, at, a.family AS family
  REMOVE a:Artifact:Memory:Knowledge:Skill:WorkingState
  SET a:Tombstone
  SET a = {id: a.id, scope_id: a.scope_id, family: family, status: 'removed', removed_at: at,
           removed_by: $actor, reason: $reason}
  CREATE (feed_ev:Event:Unsequenced {id: $event_id, op: 'delete',
           at: at, actor: $actor, scope_id: a.scope_id, artifact_id: a.id,
                  family: family, reason: $reason, detached: dependents})
  SET feed_ev.namespace = COLLECT { MATCH (ns_s:Scope {id: feed_ev.scope_id}) RETURN ns_s.namespace }[0],
      feed_ev.db_at = datetime.realtime()
  RETURN true AS deleted
}
RETURN a IS NOT NULL AS found, a.family AS family, dependents, coalesce(deleted, false) AS deleted
