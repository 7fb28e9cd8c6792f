// A scope's search version: the newest write, vector and deletion of its rows (fragments/scope_version.cypher).
// The in-process scope index (service/search/scope_index.py) compares it with the version of its copy and reloads
// the scope when they differ.
// Params: $scope_id
// Yields: updated, embedded, removed (each null when the scope has no such row)
{{SCOPE_VERSION}}
RETURN updated, embedded, removed
