// Explicit clear of a scope's working state (the only way it goes, besides its scope's deletion).
// Params: $scope_id, $now, $actor, $event_id
MATCH (s:Scope {id: $scope_id}) WHERE s.deleting IS NULL
OPTIONAL MATCH (w:WorkingState {scope_id: $scope_id})
OPTIONAL MATCH (w)-[:HAS_REVISION]->(r:Revision)
WITH s, collect(DISTINCT w) AS states, collect(r) AS revisions
FOREACH (r IN revisions | DETACH DELETE r)
FOREACH (w IN states | DETACH DELETE w)
CREATE (:Event:Unsequenced {namespace: s.namespace, db_at: datetime.realtime(),
                id: $event_id, op: 'clear', at: $now, actor: $actor, scope_id: s.id, family: 'working_state',
                cleared: size(states)})
RETURN size(states) AS cleared
