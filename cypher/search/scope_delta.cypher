// The rows of one scope written since its copy's version (service/search/scope_index.py, ScopeCopy.extended): every
// searchable row whose updated_at is after $since, oldest first, as search/scope_corpus.cypher returns them
// (fragment SCOPE_ROWS). The writes that committed late, after a newer one although their updated_at is older, are
// found by search/scope_window.cypher. One range seek on the (scope_id, updated_at) index of migration 0014.
// Params: $scope_id, $model (null = no vectors), $since (a DateTime), $chunk (rows a record)
MATCH (a:Artifact)
WHERE a.scope_id = $scope_id AND a.updated_at > $since AND a.family IN ['memory', 'knowledge', 'skill']
{{SCOPE_ROWS}}
