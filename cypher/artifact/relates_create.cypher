// Create (idempotently) a typed knowledge relation (:Knowledge)-[:RELATES_TO {type}]->(:Knowledge) within
// one scope. Params: $scope_id, $from_id, $to_id, $relation
MATCH (a:Artifact {id: $from_id}) WHERE a.scope_id = $scope_id AND a.family <> 'working_state'
MATCH (b:Artifact {id: $to_id}) WHERE b.scope_id = $scope_id AND b.family <> 'working_state'
MERGE (a)-[r:RELATES_TO {type: $relation}]->(b)
RETURN type(r) AS type, a.id AS from_id, b.id AS to_id, r.type AS relation
