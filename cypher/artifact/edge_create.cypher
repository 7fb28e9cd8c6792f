// Create (idempotently) a relationship between two artifacts of one scope. Both ends are matched inside
// the caller's scope, so an id from another scope matches nothing and nothing is created.
// $type is one of SUPPORTS | DEPENDS_ON | DERIVED_FROM (RELATES_TO has its own query, with a type).
// Params: $scope_id, $from_id, $to_id, $type
// Concurrency rule (see artifact/delete.cypher): both ends are locked by a write, in id order (so two edge
// creations cannot deadlock), and re-checked after the locks: an end a concurrent delete turned into a tombstone
// gets no edge (nothing is created; the caller gets a 404).
// guards: a.status, b.status
MATCH (a:Artifact {id: $from_id}) WHERE a.scope_id = $scope_id AND a.family <> 'working_state'
MATCH (b:Artifact {id: $to_id}) WHERE b.scope_id = $scope_id AND b.family <> 'working_state'
FOREACH (n IN CASE WHEN a.id < b.id THEN [a, b] ELSE [b, a] END | SET n._lock = true)
// The marker leaves before the re-check: a row the re-check drops would keep it, committed (the lock itself lasts
// until the commit either way).
REMOVE a._lock, b._lock
WITH a, b
WHERE a:Artifact AND b:Artifact
MERGE (a)-[r:$($type)]->(b)
RETURN type(r) AS type, a.id AS from_id, b.id AS to_id, null AS relation
