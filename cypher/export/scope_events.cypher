// Export, line type `event`: the scope's audit trail (events about working state only when $working_state),
// in id order after $after. Params: $scope_id, $working_state (bool), $after, $limit
MATCH (e:Event {scope_id: $scope_id})
WHERE e.id > $after AND ($working_state OR coalesce(e.family, '') <> 'working_state')
WITH e ORDER BY e.id LIMIT $limit
RETURN e {.*} AS row, e.id AS k
