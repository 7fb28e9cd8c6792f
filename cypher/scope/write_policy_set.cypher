// Replace a scope's write policy; recorded as an event. Params: $id, $policy (JSON text), $now, $actor,
// $event_id
MATCH (s:Scope {id: $id}) WHERE s.deleting IS NULL
SET s.write_policy = $policy
CREATE (:Event:Unsequenced {namespace: s.namespace, db_at: datetime.realtime(),
                id: $event_id, op: 'write_policy', at: $now, actor: $actor, scope_id: s.id, policy: $policy})
RETURN s.write_policy AS policy
