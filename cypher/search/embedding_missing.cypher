// Memories, knowledge pages and skills without a vector from $model at their current revision (a backfill's
// next batch). Params: $model, $scope_id (null = every scope), $limit
MATCH (a:Artifact)
WHERE a.family IN ['memory', 'knowledge', 'skill'] AND a.status IN ['active', 'archived', 'pending']
  AND ($scope_id IS NULL OR a.scope_id = $scope_id)
  AND (a.embedding_model IS NULL OR a.embedding_model <> $model OR a.embedding_revision IS NULL
       OR a.embedding_revision <> a.revision)
RETURN a.id AS id, a.revision AS revision, a.title AS title, a.content AS content
ORDER BY a.id
LIMIT $limit
