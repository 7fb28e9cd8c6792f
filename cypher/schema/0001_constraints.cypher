// Uniqueness constraints (the kind Neo4j Community offers). Idempotent: every statement is IF NOT EXISTS.
CREATE CONSTRAINT scope_id_unique IF NOT EXISTS FOR (s:Scope) REQUIRE s.id IS UNIQUE;
CREATE CONSTRAINT scope_key_unique IF NOT EXISTS FOR (s:Scope) REQUIRE (s.namespace, s.cognitive_owner, s.name) IS UNIQUE;
CREATE CONSTRAINT artifact_id_unique IF NOT EXISTS FOR (a:Artifact) REQUIRE a.id IS UNIQUE;
CREATE CONSTRAINT tombstone_id_unique IF NOT EXISTS FOR (t:Tombstone) REQUIRE t.id IS UNIQUE;
CREATE CONSTRAINT event_id_unique IF NOT EXISTS FOR (e:Event) REQUIRE e.id IS UNIQUE;
CREATE CONSTRAINT digest_pass_id_unique IF NOT EXISTS FOR (p:DigestPass) REQUIRE p.id IS UNIQUE;
CREATE CONSTRAINT idempotency_key_unique IF NOT EXISTS FOR (k:IdempotencyKey) REQUIRE k.id IS UNIQUE;
CREATE CONSTRAINT schema_migration_unique IF NOT EXISTS FOR (m:SchemaMigration) REQUIRE m.version IS UNIQUE;
