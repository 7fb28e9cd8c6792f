// Readiness where no trigger guards the scopes (scope guard "queries"): the applied schema version only.
// No params.
OPTIONAL MATCH (s:SchemaState {id: 'cognition'})
RETURN s.version AS version, [] AS live
