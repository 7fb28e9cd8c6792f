// Load by id within a scope. A load is a recall: recall_count + 1 and accessed_at = now, in the same
// transaction (pending rows are returned to their owner but never counted). Revision and ETag unchanged.
// An id from another scope matches nothing. Params: $scope_id, $id, $families, $now
OPTIONAL MATCH (a:Artifact {id: $id}) WHERE a.scope_id = $scope_id AND a.family IN $families
OPTIONAL MATCH (t:Tombstone {id: $id}) WHERE t.scope_id = $scope_id AND t.family IN $families
FOREACH (_ IN CASE WHEN a IS NOT NULL AND a.status <> 'pending' THEN [1] ELSE [] END |
  SET a.recall_count = coalesce(a.recall_count, 0) + 1, a.accessed_at = $now)
RETURN a {.*, embedding: null, relations: [(a)-[r:RELATES_TO]->(b) | {type: r.type, to_id: b.id}]} AS artifact, t {.*} AS tombstone
