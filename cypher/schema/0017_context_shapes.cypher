// The context arms at a cost bounded by their answer, whatever a scope holds (docs/context-and-ranking.md).
// Two shapes made an arm read its whole scope through the 0009 indexes:
// - ties: rows equal on an arm's sort key, as a bulk import leaves them (one timestamp, one trust). The arms
//   break ties by id, which those indexes did not hold, so Neo4j read every tied row to sort it, and the
//   retention arms' proof (fragments/retention_top.cypher) could not tell the n-th row from the rows its lists
//   left out. Each index an arm walks in its answer order now ends in id.
// - the profile: role-tier memories were found through the family's indexes and the tier filtered after them,
//   so a scope with few or no role-tier memories read every memory once per list. Its lists now walk
//   (scope_id, family, tier, status, X).
// Idempotent: IF NOT EXISTS / IF EXISTS. The indexes replaced are dropped once their successors exist.
CREATE INDEX artifact_ctx_kind_trust_id IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.kind, a.status, a.trust, a.updated_at, a.id);
CREATE INDEX artifact_ctx_kind_updated_id IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.kind, a.status, a.updated_at, a.id);
CREATE INDEX artifact_ctx_kind_created_id IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.kind, a.status, a.created_at, a.id);
CREATE INDEX artifact_ctx_family_updated_id IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.status, a.updated_at, a.id);
CREATE INDEX artifact_ctx_tier_recalls IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.tier, a.status, a.recall_count);
CREATE INDEX artifact_ctx_tier_accessed IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.tier, a.status, a.accessed_at);
CREATE INDEX artifact_ctx_tier_created IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.tier, a.status, a.created_at);
CREATE INDEX artifact_ctx_tier_trust IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.tier, a.status, a.trust);
CREATE INDEX artifact_ctx_tier_updated_id IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.tier, a.status, a.updated_at, a.id);
DROP INDEX artifact_ctx_kind_trust IF EXISTS;
DROP INDEX artifact_ctx_kind_updated IF EXISTS;
DROP INDEX artifact_ctx_kind_created IF EXISTS;
DROP INDEX artifact_ctx_family_updated IF EXISTS;
