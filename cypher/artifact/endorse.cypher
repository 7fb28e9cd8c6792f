// Endorse an active record whose source is untrusted (tool, web, import): an operator's approval, after which
// it may reach the eager constraints / instructions arms of the context call (fragments/eager_trusted_ok).
// An `approve` event. Records that are not active, or need no endorsement, are left as they are.
// Params: $scope_id, $id, $families, $now, $actor, $event_id, $reason
// Concurrency rule (lock by write, then read; see artifact/update.cypher): status, source and approval are read
// after the write lock, so an endorsement racing an edit (which drops the approval) or a delete sees what
// committed last; two endorsements write one approval.
// guards: a.status, a.source, a.approved_by, a.updated_at
OPTIONAL MATCH (a:Artifact {id: $id}) WHERE a.scope_id = $scope_id AND a.family IN $families
SET a._lock = true
WITH a, apoc.any.properties(a) AS locked
REMOVE a._lock
WITH a, locked.status AS was, coalesce(locked.source, 'agent') IN ['tool', 'web', 'import'] AS untrusted,
     locked.approved_by IS NOT NULL AS endorsed, {{CHANGE_AT}} AS at
OPTIONAL CALL (a, was, untrusted, endorsed, at) {
  WITH a, at WHERE was = 'active' AND untrusted AND NOT endorsed
  SET a.approved_by = $actor, a.approved_at = at, a.updated_at = at
  CREATE (feed_ev:Event:Unsequenced {id: $event_id, op: 'approve',
           at: at, actor: $actor, scope_id: a.scope_id, artifact_id: a.id,
                  family: a.family, reason: $reason, source: a.source})
  SET feed_ev.namespace = COLLECT { MATCH (ns_s:Scope {id: feed_ev.scope_id}) RETURN ns_s.namespace }[0],
      feed_ev.db_at = datetime.realtime()
  RETURN a {.*, embedding: null, relations: [(a)-[r:RELATES_TO]->(b) | {type: r.type, to_id: b.id}]} AS approved
}
RETURN a IS NOT NULL AS found, was, untrusted, endorsed, approved
