// Export, line type `tombstone`: what is left of removed or deleted artifacts, in id order after $after.
// Params: $scope_id, $after, $limit
MATCH (t:Tombstone {scope_id: $scope_id})
WHERE t.id > $after
WITH t ORDER BY t.id LIMIT $limit
RETURN t {.*} AS row, t.id AS k
