// One artifact (or its tombstone) by id within a scope, without counting a recall.
// Params: $scope_id, $id
OPTIONAL MATCH (a:Artifact {id: $id}) WHERE a.scope_id = $scope_id
OPTIONAL MATCH (t:Tombstone {id: $id}) WHERE t.scope_id = $scope_id
RETURN a {.*, embedding: null, relations: [(a)-[r:RELATES_TO]->(b) | {type: r.type, to_id: b.id}]} AS artifact, t {.*} AS tombstone
