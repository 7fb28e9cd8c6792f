// The context arms without sorting a scope. Each arm of context/assemble.cypher reads its rows in
// the order it answers in, from a composite range index whose leading properties the arm binds by equality
// (scope, family, kind where the arm has one, status = 'active' from RecallQualityOK) and whose last property
// is the arm's sort key; Neo4j then walks the index backwards for `ORDER BY … DESC` and stops at the LIMIT.
//   kind-keyed   (scope_id, family, kind, status, X): constraints / instructions (trust, updated_at),
//                environment (updated_at), recent_episodes (created_at), and preferences' five lists
//   family-keyed (scope_id, family, status, X): knowledge, skills and profile's five lists
// The retention arms' five lists (recall_count, accessed_at, created_at, trust, updated_at, each descending)
// bound RetentionScore for every row they leave out (context/assemble.cypher says how).
// A range index holds a node only when it has every indexed property, so the arms rely on trust and
// recall_count being present, as every service write makes them; the repair at the end sets the value every
// ranking already reads for a missing one (coalesce(trust, 0.5), coalesce(recall_count, 0)), so nothing a caller
// sees changes. Idempotent: IF NOT EXISTS; the repair matches nothing once run.
CREATE INDEX artifact_ctx_kind_trust IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.kind, a.status, a.trust, a.updated_at);
CREATE INDEX artifact_ctx_kind_updated IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.kind, a.status, a.updated_at);
CREATE INDEX artifact_ctx_kind_created IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.kind, a.status, a.created_at);
CREATE INDEX artifact_ctx_kind_recalls IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.kind, a.status, a.recall_count);
CREATE INDEX artifact_ctx_kind_accessed IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.kind, a.status, a.accessed_at);
CREATE INDEX artifact_ctx_family_trust IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.status, a.trust);
CREATE INDEX artifact_ctx_family_updated IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.status, a.updated_at);
CREATE INDEX artifact_ctx_family_created IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.status, a.created_at);
CREATE INDEX artifact_ctx_family_recalls IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.status, a.recall_count);
CREATE INDEX artifact_ctx_family_accessed IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.status, a.accessed_at);
MATCH (a:Artifact)
WHERE a.trust IS NULL OR a.recall_count IS NULL
CALL (a) {
  SET a.trust = coalesce(a.trust, 0.5), a.recall_count = coalesce(a.recall_count, 0)
} IN TRANSACTIONS OF 10000 ROWS;
