// A scope's search version: the newest write, vector and deletion of its rows (three index-backed top-1
// seeks, migration 0014; each ORDER BY names the equality-bound scope_id too, or Neo4j 5.26 reads every entry
// of the scope and sorts them: 207 ms instead of 4 at 750k rows). The in-process scope index
// (service/search/scope_index.py) compares it with the version of its copy and reloads the scope when they differ.
// Params: $scope_id
// Yields: updated, embedded, removed (each null when the scope has no such row)
CALL () {
  MATCH (a:Artifact) WHERE a.scope_id = $scope_id AND a.updated_at IS NOT NULL
  RETURN a.updated_at AS updated ORDER BY a.scope_id DESC, a.updated_at DESC LIMIT 1
  UNION ALL RETURN null AS updated
}
WITH collect(updated)[0] AS updated
CALL () {
  MATCH (a:Artifact) WHERE a.scope_id = $scope_id AND a.embedded_at IS NOT NULL
  RETURN a.embedded_at AS embedded ORDER BY a.scope_id DESC, a.embedded_at DESC LIMIT 1
  UNION ALL RETURN null AS embedded
}
WITH updated, collect(embedded)[0] AS embedded
CALL () {
  MATCH (t:Tombstone) WHERE t.scope_id = $scope_id AND t.removed_at IS NOT NULL
  RETURN t.removed_at AS removed ORDER BY t.scope_id DESC, t.removed_at DESC LIMIT 1
  UNION ALL RETURN null AS removed
}
RETURN updated, embedded, collect(removed)[0] AS removed
