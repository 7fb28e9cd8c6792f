// List under typed filters in the order things happened (occurred_at, id), one page after a cursor. Not a recall.
// The order of a list bounded by occurred_at (or asked for it): the page is read in the order of the range index
// (scope_id, family, status, occurred_at, id) from the cursor (or occurred_after) on, up to occurred_before, and
// stops after $limit rows, so a narrow window of a large scope costs its page, not the scope.
// Params: those of artifact/list.cypher; the cursor ($cursor_at, $cursor_id) is an occurred_at and an id
MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, status, occurred_at, id)
WHERE a.scope_id = $scope_id AND a.family = $family AND a.status = $status
  AND a.occurred_at >= coalesce($cursor_at, $occurred_after, datetime('0001-01-01T00:00:00Z'))
  AND a.occurred_at < coalesce($occurred_before, datetime('9999-12-31T23:59:59.999999Z'))
  AND a.id IS NOT NULL
  AND ($kind IS NULL OR a.kind = $kind)
  AND ($tier IS NULL OR a.tier = $tier)
  AND ($tag IS NULL OR $tag IN a.tags)
  AND ($created_after IS NULL OR a.created_at >= $created_after)
  AND ($created_before IS NULL OR a.created_at < $created_before)
  AND ($occurred_after IS NULL OR a.occurred_at >= $occurred_after)
  AND ($as_of IS NULL OR {{VALID_AT}})
  AND ($cursor_at IS NULL OR a.occurred_at > $cursor_at OR (a.occurred_at = $cursor_at AND a.id > $cursor_id))
RETURN {{ARTIFACT_ROW}} AS artifact
ORDER BY a.scope_id, a.family, a.status, a.occurred_at, a.id
LIMIT $limit
