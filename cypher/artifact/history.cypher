// A record's revisions and events, oldest first. Works for tombstones too (their events remain). With $known_at,
// only what the store held at that instant (the revisions and events written by then). Each revision carries the
// state it recorded (fragment REVISION_STATE): its content, valid time and flags.
// Params: $scope_id, $id, $families, $known_at (null = everything)
OPTIONAL MATCH (a:Artifact {id: $id}) WHERE a.scope_id = $scope_id AND a.family IN $families
OPTIONAL MATCH (t:Tombstone {id: $id}) WHERE t.scope_id = $scope_id AND t.family IN $families
WITH coalesce(a, t) AS x WHERE x IS NOT NULL
CALL (x) {
  MATCH (r:Revision {artifact_id: x.id}) WHERE r.scope_id = x.scope_id AND ($known_at IS NULL OR r.at <= $known_at)
  RETURN {type: 'revision', at: r.at, revision: r.revision, actor: r.actor, content_hash: r.content_hash,
          content: r.content, occurred_at: r.occurred_at, valid_from: r.valid_from, valid_until: r.valid_until,
          conflicted: r.conflicted} AS item
  UNION ALL
  MATCH (e:Event {artifact_id: x.id}) WHERE e.scope_id = x.scope_id AND ($known_at IS NULL OR e.at <= $known_at)
  // the event's audit fields; its place in the namespace's feed (numbered after commit) is the feed's business
  RETURN apoc.map.removeKeys(e {type: 'event', .*}, ['position', 'kind', 'namespace', 'db_at']) AS item
}
RETURN item ORDER BY item.at, item.type DESC, coalesce(item.revision, 0)
