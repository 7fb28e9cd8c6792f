// kind: clauses
// Hybrid ranking (a fragment: included where the HYBRID_RANK placeholder stands, by search/hybrid.cypher and the
// relevant_memories arm of context/assemble.cypher). The candidates of ONE scope, ranked two ways, each from
// one of two sources:
//   lexical: $q.ft_ids — the in-process scope index's BM25 ranking (service/search/scope_index.py: per-scope term
//              statistics, so another tenant's rows cannot move it), best first; or, when $q.ft_ids is null,
//              db.index.fulltext.queryNodes over $q.lucene (scope, families and statuses inside the Lucene
//              query itself), the top $fetch by Lucene score, after waiting for the index to catch up;
//   vector:    $q.vec_ids — the scope index's exact cosine ranking, best first; or, when $q.vec_ids is null and
//              $q.qvec is given, EXACT cosine similarity (vector.similarity.cosine, normalised to [0, 1]) over the
//              scope's rows embedded by the current model ($q.model) at their current revision, the top $fetch
//              at or above $min_sim. Exact rather than the ANN index: see service/search/ranking.py.
// Status, family, the typed filters, validity and occurred_at (fragment SEARCH_FILTER) are checked on the live
// nodes before ranks are given. Then fused by weighted reciprocal rank and boosted by retention (service/search/ranking.py):
//   rrf   = $w_ft / ($rrf_k + ft_rank) + $w_vec / ($rrf_k + vec_rank)     (a missing rank adds 0)
//   score = rrf * (1 + $boost * retention),   retention = RetentionScore (digest/retention.py) at $now, $w
// Params: $q — the query's own inputs, one map, so that their types and sizes (a null, a list of 0, 5 or 30 ids)
//         do not make Neo4j plan the including query again (its plan cache keys on each parameter's type and
//         size class): $q.ft_ids, $q.lucene (both null = no lexical ranking), $q.vec_ids, $q.qvec (both null =
//         no vector ranking), $q.model, $q.kind, $q.tier, $q.tag, $q.any_time, $q.occurred_from, $q.occurred_to;
//         and $fetch, $scope_id, $families, $statuses, $min_sim, $rrf_k, $w_ft, $w_vec, $boost, $now, $as_of, $w
// Yields: a, ft_rank, vec_rank, retention, score (unordered)
CALL () {
  WITH 1 AS _ WHERE $q.ft_ids IS NOT NULL
  UNWIND range(0, size($q.ft_ids) - 1) AS i
  MATCH (a:Artifact {id: $q.ft_ids[i]})
  WHERE {{SEARCH_FILTER}}
  WITH a, i ORDER BY i
  WITH collect(a) AS ranked
  UNWIND range(1, size(ranked)) AS rank
  RETURN ranked[rank - 1] AS a, rank AS ft_rank, null AS vec_rank
  UNION ALL
  WITH 1 AS _ WHERE $q.ft_ids IS NULL AND $q.lucene IS NOT NULL
  // The index is eventually consistent (schema 0015): wait until it holds every committed write, so a search
  // sees a memory saved a moment ago.
  CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()
  CALL db.index.fulltext.queryNodes('artifact_text', $q.lucene, {limit: $fetch}) YIELD node AS a, score
  WHERE {{SEARCH_FILTER}}
  WITH a ORDER BY score DESC, a.id
  WITH collect(a) AS ranked
  UNWIND range(1, size(ranked)) AS rank
  RETURN ranked[rank - 1] AS a, rank AS ft_rank, null AS vec_rank
  UNION ALL
  WITH 1 AS _ WHERE $q.vec_ids IS NOT NULL
  UNWIND range(0, size($q.vec_ids) - 1) AS i
  MATCH (a:Artifact {id: $q.vec_ids[i]})
  WHERE {{SEARCH_FILTER}}
  WITH a, i ORDER BY i
  WITH collect(a) AS ranked
  UNWIND range(1, size(ranked)) AS rank
  RETURN ranked[rank - 1] AS a, null AS ft_rank, rank AS vec_rank
  UNION ALL
  WITH 1 AS _ WHERE $q.vec_ids IS NULL AND $q.qvec IS NOT NULL
  MATCH (a:Artifact)
  WHERE {{SEARCH_FILTER}} AND a.embedding_model = $q.model AND a.embedding_revision = a.revision
  WITH a, vector.similarity.cosine(a.embedding, $q.qvec) AS sim
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
     (coalesce($w_ft / ($rrf_k + ft_rank), 0.0) + coalesce($w_vec / ($rrf_k + vec_rank), 0.0))
     * (1.0 + $boost * retention) AS score
