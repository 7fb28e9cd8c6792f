// Export, line type `event`: the scope's audit trail (events about working state only when $working_state),
// in id order after $after. Without their place in this store's feed (position, kind, namespace, db_at): an
// import gets its own. Params: $scope_id, $working_state (bool), $after, $limit
MATCH (e:Event {scope_id: $scope_id})
WHERE e.id > $after AND ($working_state OR coalesce(e.family, '') <> 'working_state')
WITH e ORDER BY e.id LIMIT $limit
RETURN apoc.map.removeKeys(e {.*}, ['position', 'kind', 'namespace', 'db_at']) AS row, e.id AS k
