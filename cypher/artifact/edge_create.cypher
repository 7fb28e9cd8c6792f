// Create (idempotently) a relationship between two artifacts of one scope. Both ends are matched inside
// the caller's scope, so an id from another scope matches nothing and nothing is created.
// $type is one of SUPPORTS | DEPENDS_ON | DERIVED_FROM (RELATES_TO has its own query, with a type).
// Params: $scope_id, $from_id, $to_id, $type
MATCH (a:Artifact {id: $from_id}) WHERE a.scope_id = $scope_id AND a.family <> 'working_state'
MATCH (b:Artifact {id: $to_id}) WHERE b.scope_id = $scope_id AND b.family <> 'working_state'
MERGE (a)-[r:$($type)]->(b)
RETURN type(r) AS type, a.id AS from_id, b.id AS to_id, null AS relation
