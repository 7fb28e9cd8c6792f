// Export, line type `edge`: every first-class relationship between two artifacts or tombstones of the scope
// (SUPPORTS, DEPENDS_ON, DERIVED_FROM, SUPERSEDES, RELATES_TO {type}), ordered by (from, type, to, relation);
// a page of $limit after $skip. Params: $scope_id, $working_state (bool), $skip, $limit
CALL () {
  MATCH (a:Artifact {scope_id: $scope_id}) RETURN a
  UNION ALL
  MATCH (a:Tombstone {scope_id: $scope_id}) RETURN a
}
WITH a WHERE $working_state OR coalesce(a.family, '') <> 'working_state' OR a:Tombstone
MATCH (a)-[r:SUPPORTS|DEPENDS_ON|DERIVED_FROM|SUPERSEDES|RELATES_TO]->(b)
WHERE b.scope_id = $scope_id AND (b:Artifact OR b:Tombstone)
  AND ($working_state OR coalesce(b.family, '') <> 'working_state' OR b:Tombstone)
WITH a, r, b ORDER BY a.id, type(r), b.id, coalesce(r.type, '') SKIP $skip LIMIT $limit
RETURN {rel: type(r), from: a.id, to: b.id, relation: r.type} AS row
