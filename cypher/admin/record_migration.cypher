// Record an applied migration and raise the graph's schema version. Params: $v, $name, $sum, $now
MERGE (m:SchemaMigration {version: $v})
SET m.name = $name, m.checksum = $sum, m.applied_at = $now
MERGE (s:SchemaState {id: 'cognition'})
SET s.version = CASE WHEN coalesce(s.version, 0) > $v THEN s.version ELSE $v END
