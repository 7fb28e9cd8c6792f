// Last step of a scope delete: the kernels and the scope node together (the kernel-cardinality trigger
// allows kernels to go only with their scope), and the audit event. Params: $id, $now, $event_id, $actor,
// $deleted
MATCH (s:Scope {id: $id})
WITH s, s {.namespace, .cognitive_owner, .name} AS info
OPTIONAL MATCH (k:Artifact {scope_id: $id})
WITH s, info, collect(k) AS left
FOREACH (k IN left | DETACH DELETE k)
DETACH DELETE s
CREATE (:Event:Unsequenced {id: $event_id, op: 'scope_delete', db_at: datetime.realtime(),
         at: $now, actor: $actor, scope_id: $id,
                namespace: info.namespace, cognitive_owner: info.cognitive_owner, name: info.name,
                deleted: $deleted + size(left)})
RETURN $id AS id, $deleted + size(left) AS deleted
