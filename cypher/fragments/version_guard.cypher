// kind: clauses
// Fragment VERSION_GUARD: does the scope-index copy that ranked this query's candidates still hold the scope as it
// is? (context/assemble.cypher, search/hybrid.cypher.) A caller that ranked with the copy its process holds,
// without reading the scope's version first (service/search/scope_index.py `ScopeIndexes.held`: the call is then
// one auto-commit query, one round trip), passes that copy's version [updated, embedded, removed] as $q.held (in
// the map: its type does not enter the plan-cache key). The version is read here (fragment SCOPE_VERSION) and
// compared as instants (a DateTime sent back as a parameter may carry another zone form); the caller reads
// nothing when $q.held is null (ranked otherwise, or nothing ranked).
// Yields `current`, one row: true when $q.held is null or the scope has not moved since the copy; when false the
// query selects and writes nothing, and the caller answers again the usual way (version read, copy brought up to
// date, the query).
OPTIONAL CALL () {
  WITH 1 AS guarded WHERE $q.held IS NOT NULL
  {{SCOPE_VERSION}}
  RETURN [updated, embedded, removed] AS version
}
WITH $q.held IS NULL OR all(i IN range(0, 2) WHERE
       CASE WHEN version[i] IS NULL OR $q.held[i] IS NULL THEN version[i] IS NULL AND $q.held[i] IS NULL
            ELSE version[i].epochSeconds = $q.held[i].epochSeconds AND version[i].nanosecond = $q.held[i].nanosecond
       END) AS current
