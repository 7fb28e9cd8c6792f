// kind: clauses
// Hybrid ranking (a fragment: included where the HYBRID_RANK placeholder stands, by search/hybrid.cypher and the
// relevant_memories arm of context/assemble.cypher). The candidates of ONE scope, ranked two ways:
//   full-text: db.index.fulltext.queryNodes over $lucene (scope, families and statuses are inside the Lucene
//              query itself), the top $fetch by Lucene score;
//   vector:    only with $qvec: EXACT cosine similarity (vector.similarity.cosine, normalised to [0, 1]) over
//              the scope's rows embedded by the current model ($model) at their current revision, the top
//              $fetch at or above $min_sim. Exact rather than the ANN index: see service/ranking.py.
// then fused by reciprocal rank and boosted by retention (service/ranking.py documents the formula):
//   rrf   = 1 / ($rrf_k + ft_rank) + 1 / ($rrf_k + vec_rank)     (a missing rank adds 0)
//   score = rrf * (1 + $boost * retention),   retention = RetentionScore (digest/retention.py) at $now, $w
// Typed filters ($kind, $tier, $tag; null = none) apply to both rankings before ranks are given.
// Params: $lucene (null = no full-text ranking), $fetch, $scope_id, $families, $statuses, $kind, $tier, $tag,
//         $qvec (null = no vector ranking), $model, $min_sim, $rrf_k, $boost, $now, $w
// Yields: a, ft_rank, vec_rank, retention, score (unordered)
CALL () {
  WITH 1 AS _ WHERE $lucene IS NOT NULL
  CALL db.index.fulltext.queryNodes('artifact_text', $lucene, {limit: $fetch}) YIELD node AS a, score
  WHERE a.scope_id = $scope_id AND a.family IN $families AND a.status IN $statuses
    AND ($kind IS NULL OR a.kind = $kind) AND ($tier IS NULL OR a.tier = $tier) AND ($tag IS NULL OR $tag IN a.tags)
  WITH a ORDER BY score DESC, a.id
  WITH collect(a) AS ranked
  UNWIND range(1, size(ranked)) AS rank
  RETURN ranked[rank - 1] AS a, rank AS ft_rank, null AS vec_rank
  UNION ALL
  WITH 1 AS _ WHERE $qvec IS NOT NULL
  MATCH (a:Artifact)
  WHERE a.scope_id = $scope_id AND a.family IN $families AND a.status IN $statuses
    AND a.embedding_model = $model AND a.embedding_revision = a.revision
    AND ($kind IS NULL OR a.kind = $kind) AND ($tier IS NULL OR a.tier = $tier) AND ($tag IS NULL OR $tag IN a.tags)
  WITH a, vector.similarity.cosine(a.embedding, $qvec) AS sim
  WHERE sim >= $min_sim
  WITH a, sim ORDER BY sim DESC, a.id LIMIT $fetch
  WITH collect(a) AS ranked
  UNWIND range(1, size(ranked)) AS rank
  RETURN ranked[rank - 1] AS a, null AS ft_rank, rank AS vec_rank
}
WITH a, min(ft_rank) AS ft_rank, min(vec_rank) AS vec_rank
CALL (a) {
  WITH a AS m
  RETURN {{RETENTION_SCORE}} AS retention
}
WITH a, ft_rank, vec_rank, retention,
     (coalesce(1.0 / ($rrf_k + ft_rank), 0.0) + coalesce(1.0 / ($rrf_k + vec_rank), 0.0))
     * (1.0 + $boost * retention) AS score
