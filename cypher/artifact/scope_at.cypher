// A scope's records of $families as the store held them at $known_at (record time; fragment STATE_AT): every
// artifact created by then, with its fields, status and flags as they were. Records deleted, removed or rejected
// since are erased and not among them (`erased` counts them: their save was before $known_at, their tombstone
// after). Read by list, search and the context call at known_at (service/usecases/recordtime.py); it reads the
// whole scope: an audit's read of the past, not a hot path. Params: $scope_id, $families, $known_at
MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, created_at)
WHERE a.scope_id = $scope_id AND a.created_at <= $known_at AND a.family IN $families
{{STATE_AT}}
WITH collect(state) AS rows
CALL () {
  MATCH (t:Tombstone {scope_id: $scope_id})
  WHERE t.family IN $families AND t.removed_at > $known_at
    AND EXISTS { MATCH (e:Event {artifact_id: t.id}) WHERE e.op = 'save' AND e.at <= $known_at }
  RETURN count(t) AS erased
}
RETURN rows, erased
