// One record as the store held it at $known_at (record time; fragment STATE_AT). `artifact` is null when it did not
// exist then; a record deleted, removed or rejected since is `erased` (its tombstone: the content went with it)
// when it had been saved by then. Not a recall. Params: $scope_id, $id, $families, $known_at
OPTIONAL MATCH (a:Artifact {id: $id}) WHERE a.scope_id = $scope_id AND a.family IN $families
OPTIONAL CALL (a) {
  WITH a WHERE a IS NOT NULL
  {{STATE_AT}}
  RETURN state
}
OPTIONAL MATCH (t:Tombstone {id: $id}) WHERE t.scope_id = $scope_id AND t.family IN $families
  AND t.removed_at > $known_at
  AND EXISTS { MATCH (e:Event {artifact_id: t.id}) WHERE e.op = 'save' AND e.at <= $known_at }
RETURN state AS artifact, t {.*} AS erased
