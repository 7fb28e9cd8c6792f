// Everything the in-process scope index (service/scope_index.py) ranks for one scope: its memories,
// knowledge pages and skills in any status (status, kind, tier and tags are filtered live by
// search/hybrid_rank.cypher, so an approval or an archive needs no reload), oldest first, each with its
// vector when it is from $model at the row's current revision. Read with the scope's version in the same
// transaction (search/scope_version.cypher), so copy and version agree.
// Params: $scope_id, $model (null = no vectors)
MATCH (a:Artifact)
WHERE a.scope_id = $scope_id AND a.family IN ['memory', 'knowledge', 'skill']
RETURN a.id AS id, a.family AS family, a.kind AS kind, a.title AS title, a.content AS content,
       CASE WHEN $model IS NOT NULL AND a.embedding_model = $model AND a.embedding_revision = a.revision
            THEN a.embedding END AS embedding
ORDER BY a.created_at, a.id
