// A record's revisions and events, oldest first. Works for tombstones too (their events remain).
// Params: $scope_id, $id, $families
OPTIONAL MATCH (a:Artifact {id: $id}) WHERE a.scope_id = $scope_id AND a.family IN $families
OPTIONAL MATCH (t:Tombstone {id: $id}) WHERE t.scope_id = $scope_id AND t.family IN $families
WITH coalesce(a, t) AS x WHERE x IS NOT NULL
CALL (x) {
  MATCH (r:Revision {artifact_id: x.id}) WHERE r.scope_id = x.scope_id
  RETURN {type: 'revision', at: r.at, revision: r.revision, actor: r.actor, content_hash: r.content_hash,
          content: r.content} AS item
  UNION ALL
  MATCH (e:Event {artifact_id: x.id}) WHERE e.scope_id = x.scope_id
  RETURN e {type: 'event', .*} AS item
}
RETURN item ORDER BY item.at, item.type DESC, coalesce(item.revision, 0)
