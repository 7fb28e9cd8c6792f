// Explicit search, hybrid-ranked (fragments/hybrid_rank.cypher: full-text + vector similarity when an embedder is
// configured, fused by reciprocal rank, boosted by retention). Deliberately NOT behind RecallQualityOK: stale
// and conflicted rows are returned with their flags (docs/design.md). Pending rows and working state never (the
// caller's $statuses and $families never name them). Each hit counts as a recall when $recall.
// Params: those of fragments/hybrid_rank.cypher (with $q.held, fragments/version_guard.cypher), plus $limit, $recall
// Yields a row per hit (artifact, score, ft_rank, vec_rank, retention, current: true); when the version guard
// finds the scope moved since the copy that ranked $q.ft_ids, one row with `current` false and nothing else (no
// hit counted).
// Concurrency rule (lock by write, then read; see artifact/update.cypher): when hits count as recalls, each is
// locked by a write and incremented from the value read after the lock, so concurrent searches never lose a
// count (the ranking read a.recall_count before any lock). A hit deleted, rejected or archived by a transaction
// that committed after the ranking read it is dropped (its node may be a tombstone by now).
// guards: a.recall_count
{{VERSION_GUARD}}
CALL (current) {
  WITH current WHERE current
  {{HYBRID_RANK}}
  // the lock and the recall count: see above
  WITH a, ft_rank, vec_rank, retention, score ORDER BY score DESC, a.id LIMIT $limit
  FOREACH (_ IN CASE WHEN $recall THEN [1] ELSE [] END | SET a._lock = true)
  WITH a, ft_rank, vec_rank, retention, score, apoc.any.properties(a) AS locked
  FOREACH (_ IN CASE WHEN $recall THEN [1] ELSE [] END | REMOVE a._lock)
  WITH a, ft_rank, vec_rank, retention, score, locked
  WHERE a:Artifact AND locked.status IN $statuses
  FOREACH (_ IN CASE WHEN $recall THEN [1] ELSE [] END |
    SET a.recall_count = coalesce(locked.recall_count, 0) + 1, a.accessed_at = $now)
  RETURN {{ARTIFACT_ROW}} AS artifact, score, ft_rank, vec_rank, retention
  UNION ALL
  WITH current WHERE NOT current
  RETURN null AS artifact, null AS score, null AS ft_rank, null AS vec_rank, null AS retention
}
RETURN artifact, score, ft_rank, vec_rank, retention, current
ORDER BY score DESC, artifact.id
