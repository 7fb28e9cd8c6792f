// Everything the in-process scope index (service/search/scope_index.py) ranks for one scope: its memories,
// knowledge pages and skills in any status (status, kind, tier and tags are filtered live by
// fragments/hybrid_rank.cypher, so an approval or an archive needs no reload), oldest first (fragment
// SCOPE_ROWS). Read with the scope's version in the same transaction (search/scope_version.cypher), so copy and
// version agree.
// Params: $scope_id, $model (null = no vectors), $chunk (rows a record)
MATCH (a:Artifact)
WHERE a.scope_id = $scope_id AND a.family IN ['memory', 'knowledge', 'skill']
{{SCOPE_ROWS}}
