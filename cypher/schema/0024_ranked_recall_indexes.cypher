// The read statistics indexed only where a context arm ranks by them (docs/context-and-ranking.md). Every recall
// (a context call, a search hit, a load) sets recall_count and accessed_at, and each index holding either property
// is updated with it: six indexes held them for every artifact, which made the recall write of a 73-row context
// call cost more than its reads. Only the retention-ranked arms (preferences, knowledge, skills, profile) walk
// them, so each now ends in `ranked` (fragments/ranked.cypher: true on the rows those arms read, absent on the
// rest) and holds only those rows; a recalled constraint, episode or search hit updates none.
// Idempotent: IF NOT EXISTS / IF EXISTS; the marking touches only rows whose marker is not yet what it should be.
CREATE INDEX artifact_ctx_kind_recalls_ranked IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.kind, a.status, a.recall_count, a.ranked);
CREATE INDEX artifact_ctx_kind_accessed_ranked IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.kind, a.status, a.accessed_at, a.ranked);
CREATE INDEX artifact_ctx_family_recalls_ranked IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.status, a.recall_count, a.ranked);
CREATE INDEX artifact_ctx_family_accessed_ranked IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.status, a.accessed_at, a.ranked);
CREATE INDEX artifact_ctx_tier_recalls_ranked IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.tier, a.status, a.recall_count, a.ranked);
CREATE INDEX artifact_ctx_tier_accessed_ranked IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.tier, a.status, a.accessed_at, a.ranked);
MATCH (a:Artifact)
WITH a, {{RANKED}} AS ranked
WHERE coalesce(a.ranked, false) <> coalesce(ranked, false)
CALL (a, ranked) {
  SET a.ranked = ranked
} IN TRANSACTIONS OF 10000 ROWS;
DROP INDEX artifact_ctx_kind_recalls IF EXISTS;
DROP INDEX artifact_ctx_kind_accessed IF EXISTS;
DROP INDEX artifact_ctx_family_recalls IF EXISTS;
DROP INDEX artifact_ctx_family_accessed IF EXISTS;
DROP INDEX artifact_ctx_tier_recalls IF EXISTS;
DROP INDEX artifact_ctx_tier_accessed IF EXISTS;
