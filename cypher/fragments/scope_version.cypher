// kind: clauses
// Fragment SCOPE_VERSION: a scope's search version, the newest write, vector and deletion of its rows (three
// index-backed top-1 seeks, migration 0014; each ORDER BY names the equality-bound scope_id too, or Neo4j 5.26 reads
// every entry of the scope and sorts them: 207 ms instead of 4 at 750k rows). Read by search/scope_version.cypher
// and by the version guard of context/assemble.cypher. Subquery expressions, not CALL and collect(): an aggregation
// yields a row even when no row comes in, and the guard reads nothing when it is not asked.
// Takes $scope_id. Yields `updated`, `embedded`, `removed` (each null when the scope has no such row), a row for each
// row that comes in (variables bound before it are not carried).
WITH head(COLLECT { MATCH (a:Artifact) WHERE a.scope_id = $scope_id AND a.updated_at IS NOT NULL
                    RETURN a.updated_at ORDER BY a.scope_id DESC, a.updated_at DESC LIMIT 1 }) AS updated,
     head(COLLECT { MATCH (a:Artifact) WHERE a.scope_id = $scope_id AND a.embedded_at IS NOT NULL
                    RETURN a.embedded_at ORDER BY a.scope_id DESC, a.embedded_at DESC LIMIT 1 }) AS embedded,
     head(COLLECT { MATCH (t:Tombstone) WHERE t.scope_id = $scope_id AND t.removed_at IS NOT NULL
                    RETURN t.removed_at ORDER BY t.scope_id DESC, t.removed_at DESC LIMIT 1 }) AS removed
