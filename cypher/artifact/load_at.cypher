// One record as the store held it at $known_at (record time; fragment STATE_AT). `artifact` is null when it was not
// there then. For a tombstone, `tombstone` is the tombstone and `erased` says whether the record still existed at
// $known_at (its save by then, its deletion after: it was there, but its content went with the deletion) or was
// already gone. Not a recall. Params: $scope_id, $id, $families, $known_at
OPTIONAL MATCH (a:Artifact {id: $id}) WHERE a.scope_id = $scope_id AND a.family IN $families
OPTIONAL CALL (a) {
  WITH a WHERE a IS NOT NULL
  {{STATE_AT}}
  RETURN state
}
OPTIONAL MATCH (t:Tombstone {id: $id}) WHERE t.scope_id = $scope_id AND t.family IN $families
RETURN state AS artifact, t {.*} AS tombstone,
       t IS NOT NULL AND t.removed_at > $known_at
         AND EXISTS { MATCH (e:Event {artifact_id: t.id}) WHERE e.op = 'save' AND e.at <= $known_at } AS erased
