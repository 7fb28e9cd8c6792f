// List under typed filters, in a stable order (created_at, id), one page after a cursor. Not a recall.
// Params: $scope_id, $family, $status, $kind, $tier, $tag, $created_after, $created_before, $occurred_after,
//         $occurred_before, $as_of (valid time: only records valid then — fragment VALID_AT; null = any validity),
//         $cursor_at, $cursor_id, $limit  (null means "no filter")
// The page is read in the order of the range index (scope_id, family, status, created_at), from the cursor (or
// created_after) on, and stops after $limit rows (PartialTop on id among equal times): a page costs its own
// rows, not the scope's (at 100,000 memories the first page read and sorted all 100,000 rows: ~330 ms).
// The seek's lower bound only narrows the range (the cursor and created_after predicates below decide); its
// upper bound is created_before itself. The constant columns lead the ORDER BY so the index's order serves it.
// A list bounded by occurred_at reads in that order instead (artifact/list_occurred.cypher).
MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, status, created_at)
WHERE a.scope_id = $scope_id AND a.family = $family AND a.status = $status
  AND a.created_at >= coalesce($cursor_at, $created_after, datetime('0001-01-01T00:00:00Z'))
  AND a.created_at < coalesce($created_before, datetime('9999-12-31T23:59:59.999999Z'))
  AND ($kind IS NULL OR a.kind = $kind)
  AND ($tier IS NULL OR a.tier = $tier)
  AND ($tag IS NULL OR $tag IN a.tags)
  AND ($created_after IS NULL OR a.created_at >= $created_after)
  AND ($occurred_after IS NULL OR a.occurred_at >= $occurred_after)
  AND ($occurred_before IS NULL OR a.occurred_at < $occurred_before)
  AND ($as_of IS NULL OR {{VALID_AT}})
  AND ($cursor_at IS NULL OR a.created_at > $cursor_at OR (a.created_at = $cursor_at AND a.id > $cursor_id))
RETURN {{ARTIFACT_ROW}} AS artifact
ORDER BY a.scope_id, a.family, a.status, a.created_at, a.id
LIMIT $limit
