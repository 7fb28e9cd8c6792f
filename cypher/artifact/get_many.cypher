// Artifacts by id within a scope, in the order given, without counting a recall. Params: $scope_id, $ids
UNWIND range(0, size($ids) - 1) AS i
MATCH (a:Artifact {id: $ids[i]}) WHERE a.scope_id = $scope_id
RETURN {{ARTIFACT_ROW}} AS artifact ORDER BY i
