// The ids of one scope's rows deleted since its copy's version (service/search/scope_index.py, ScopeCopy.extended): every
// tombstone whose removed_at is at or after $since less $lookback seconds (the same look-back as
// search/scope_delta.cypher). A delete, a reject and a GC pass's removal each leave a :Tombstone with the row's
// id. One range seek on the (scope_id, removed_at) index of migration 0014.
// Params: $scope_id, $since (a DateTime), $lookback (seconds)
MATCH (t:Tombstone)
WHERE t.scope_id = $scope_id AND t.removed_at >= $since - duration({seconds: $lookback})
RETURN t.id AS id
