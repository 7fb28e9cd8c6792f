// The digest without partition scans. Candidates: an active row some archive rule can hold is reached by the
// broken-reference BFS, or is conflicted (seek on (scope_id, conflicted)), or is a role-tier memory (seek on
// (scope_id, tier)); archived rows for the remove phase come from artifact_scope_family_status. Staleness
// flags: role-tier memories plus rows flagged stale (scope_id, stale). Supersession: negating rows
// (scope_id, negating), which replaces 0005's global artifact_negating: nothing reads that one and every
// save maintained it.
CREATE INDEX artifact_scope_conflicted IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.conflicted);
CREATE INDEX artifact_scope_tier IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.tier);
CREATE INDEX artifact_scope_stale IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.stale);
CREATE INDEX artifact_scope_negating IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.negating);
DROP INDEX artifact_negating IF EXISTS;
