// The APOC triggers live (loaded, not paused) for this database; fails where the server has no APOC triggers.
// No params.
CALL apoc.trigger.list() YIELD name, paused
RETURN collect(CASE WHEN NOT paused THEN name END) AS live
