// The schema versions already applied. No params.
MATCH (m:SchemaMigration) RETURN m.version AS v ORDER BY v
