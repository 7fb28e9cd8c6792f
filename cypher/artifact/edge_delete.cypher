// Delete a relationship between two artifacts of one scope (RELATES_TO: only the one with $relation when
// given). Params: $scope_id, $from_id, $to_id, $type, $relation
MATCH (a:Artifact {id: $from_id})-[r:$($type)]->(b:Artifact {id: $to_id})
WHERE a.scope_id = $scope_id AND b.scope_id = $scope_id AND ($relation IS NULL OR r.type = $relation)
DELETE r
RETURN count(*) AS deleted
