// Write embeddings, each only if its artifact is still at the revision that was embedded (a concurrent update
// wins; its own re-embed follows). Params: $scope_id (null = any scope),
//   $rows: [{id, revision, embedding, embedding_model, embedding_revision, embedded_at}]
UNWIND $rows AS row
MATCH (a:Artifact {id: row.id})
WHERE ($scope_id IS NULL OR a.scope_id = $scope_id) AND a.revision = row.revision
SET a.embedding = row.embedding, a.embedding_model = row.embedding_model,
    a.embedding_revision = row.embedding_revision, a.embedded_at = row.embedded_at
RETURN count(a) AS written
