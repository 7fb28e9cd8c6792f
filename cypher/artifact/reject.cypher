// Reject a pending record: its content and revisions are deleted and it becomes a tombstone (reason
// 'rejected'); the event keeps the content hash, never the content. Params: $scope_id, $id, $families,
// $now, $actor, $event_id, $reason
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
  OPTIONAL MATCH (a)-[:HAS_REVISION]->(r:Revision)
  WITH a, at, collect(r) AS revisions
  FOREACH (r IN revisions | DETACH DELETE r)
  WITH a, at, a.family AS family, a.content_hash AS hash
  REMOVE a:Artifact:Memory:Knowledge:Skill:WorkingState
  SET a:Tombstone
  SET a = {id: a.id, scope_id: a.scope_id, family: family, status: 'removed', removed_at: at,
           removed_by: $actor, reason: 'rejected'}
  CREATE (feed_ev:Event:Unsequenced {id: $event_id, op: 'reject',
           at: at, actor: $actor, scope_id: a.scope_id, artifact_id: a.id,
                  family: family, content_sha256: hash, reason: $reason})
  SET feed_ev.namespace = COLLECT { MATCH (ns_s:Scope {id: feed_ev.scope_id}) RETURN ns_s.namespace }[0],
      feed_ev.db_at = datetime.realtime()
  RETURN true AS rejected
}
RETURN a IS NOT NULL AS found, was, coalesce(rejected, false) AS rejected
