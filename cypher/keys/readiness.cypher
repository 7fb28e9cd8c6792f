// Readiness in one round trip: the applied schema version and the before-commit triggers that APOC has
// live (loaded, not paused) for this database. No params.
CALL apoc.trigger.list() YIELD name, paused
WITH collect(CASE WHEN NOT paused THEN name END) AS live
OPTIONAL MATCH (s:SchemaState {id: 'cognition'})
RETURN s.version AS version, live
