// Import: one batch of relationships between artifacts or tombstones of the new scope. `rel` is checked
// against the service's allow-list (SUPPORTS, DEPENDS_ON, DERIVED_FROM, SUPERSEDES, RELATES_TO) before it
// gets here; both ends must be in $scope_id (the scope-invariants trigger would refuse anything else).
// Params: $scope_id, $rows: [{rel, from, to, relation}]
UNWIND $rows AS row
CALL (row) {
  MATCH (a:Artifact {id: row.from}) RETURN a
  UNION
  MATCH (a:Tombstone {id: row.from}) RETURN a
}
CALL (row) {
  MATCH (b:Artifact {id: row.to}) RETURN b
  UNION
  MATCH (b:Tombstone {id: row.to}) RETURN b
}
WITH row, a, b WHERE a.scope_id = $scope_id AND b.scope_id = $scope_id
CREATE (a)-[r:$(row.rel)]->(b)
SET r.type = row.relation
RETURN count(r) AS created
