// List under typed filters, in a stable order (created_at, id), one page after a cursor. Not a recall.
// Params: $scope_id, $family, $status, $kind, $tier, $tag, $created_after, $created_before,
//         $cursor_at, $cursor_id, $limit  (null means "no filter")
MATCH (a:Artifact)
WHERE a.scope_id = $scope_id AND a.family = $family AND a.status = $status
  AND ($kind IS NULL OR a.kind = $kind)
  AND ($tier IS NULL OR a.tier = $tier)
  AND ($tag IS NULL OR $tag IN a.tags)
  AND ($created_after IS NULL OR a.created_at >= $created_after)
  AND ($created_before IS NULL OR a.created_at < $created_before)
  AND ($cursor_at IS NULL OR a.created_at > $cursor_at OR (a.created_at = $cursor_at AND a.id > $cursor_id))
RETURN a {.*, embedding: null, relations: [(a)-[r:RELATES_TO]->(b) | {type: r.type, to_id: b.id}]} AS artifact
ORDER BY a.created_at, a.id
LIMIT $limit
