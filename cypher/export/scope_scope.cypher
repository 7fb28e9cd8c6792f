// Export, line type `scope` (and `write_policy`): the scope node itself. Params: $scope_id
MATCH (s:Scope {id: $scope_id}) WHERE s.deleting IS NULL
RETURN s {.*} AS row
