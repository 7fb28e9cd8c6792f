// Export, line type `revision`: every revision of every artifact of the scope with the revision number its
// [:PREVIOUS] link points at, ordered by (artifact id, revision); a page of $limit after $skip.
// Params: $scope_id, $working_state (bool), $skip, $limit
MATCH (a:Artifact {scope_id: $scope_id})
WHERE $working_state OR a.family <> 'working_state'
MATCH (a)-[:HAS_REVISION]->(r:Revision)
WITH a, r ORDER BY a.id, r.revision SKIP $skip LIMIT $limit
RETURN r {.*, artifact_id: a.id, previous: [(r)-[:PREVIOUS]->(p:Revision) | p.revision][0]} AS row
