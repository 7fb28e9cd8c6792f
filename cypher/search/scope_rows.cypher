// Rows of one scope by id, oldest first, as search/scope_corpus.cypher returns them (fragment SCOPE_ROWS): the rows
// of a copy's look-back window that it does not hold as they are (search/scope_window.cypher). Ids of other scopes
// or families, or of rows no longer there, return nothing. One seek an id on the unique Artifact(id) index.
// Params: $scope_id, $ids, $model (null = no vectors), $chunk (rows a record)
MATCH (a:Artifact)
WHERE a.id IN $ids AND a.scope_id = $scope_id AND a.family IN ['memory', 'knowledge', 'skill']
{{SCOPE_ROWS}}
