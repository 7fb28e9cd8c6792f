// Time as a dimension (docs/time.md). Until now a record had only the store's own clock: every artifact now has
// an occurred_at (when it happened: for the records stored before, that can only be created_at); memories and
// knowledge pages have a valid_from (from occurred_at) and, where a supersession flagged them conflicted, a
// valid_until at the earliest superseding record's valid_from (created_at for those stored before), never at or
// before their own valid_from. Idempotent (a repaired row no longer matches) and batched for big stores.
MATCH (a:Artifact) WHERE a.occurred_at IS NULL
CALL (a) {
  SET a.occurred_at = a.created_at
} IN TRANSACTIONS OF 10000 ROWS;
MATCH (a:Artifact) WHERE a.valid_from IS NULL AND a.family IN ['memory', 'knowledge']
CALL (a) {
  SET a.valid_from = coalesce(a.occurred_at, a.created_at)
} IN TRANSACTIONS OF 10000 ROWS;
MATCH (a:Artifact) WHERE a.conflicted = true AND a.valid_until IS NULL AND a.family IN ['memory', 'knowledge']
CALL (a) {
  OPTIONAL MATCH (n:Artifact)-[:SUPERSEDES]->(a)
  WITH a, min(coalesce(n.valid_from, n.created_at)) AS until
  WITH a, coalesce(until, a.updated_at) AS until
  SET a.valid_until = CASE WHEN until > a.valid_from THEN until ELSE a.valid_from + duration('PT0.000001S') END
} IN TRANSACTIONS OF 10000 ROWS;
// recent_episodes is newest by when it happened (occurred_at), not by when it was stored: an arm walking
// (scope_id, family, kind, status, occurred_at, id) backwards stops at its limit.
CREATE INDEX artifact_ctx_kind_occurred_id IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.kind, a.status, a.occurred_at, a.id);
// A list in the order things happened (order=occurred), from a cursor or an occurred_after on, reads its page only.
CREATE INDEX artifact_list_occurred IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.status, a.occurred_at, a.id);
// A record's events in time order (a known_at read replays its status and flags from them).
CREATE INDEX event_artifact_at IF NOT EXISTS FOR (e:Event) ON (e.artifact_id, e.at);
