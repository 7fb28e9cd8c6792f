// Export, line type `artifact`: every artifact of the scope (kernels included; working state only when
// $working_state), every property but the vectors, one page in id order after $after.
// Params: $scope_id, $working_state (bool), $after (id, '' for the first page), $limit
MATCH (a:Artifact {scope_id: $scope_id})
WHERE a.id > $after AND ($working_state OR a.family <> 'working_state')
WITH a ORDER BY a.id LIMIT $limit
RETURN a {.*, embedding: null, embedding_model: null, embedding_revision: null} AS row, a.id AS k
