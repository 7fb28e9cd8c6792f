// kind: clauses
// Fragment RETENTION_TOP: the exact top n of an arm ranked by RetentionScore, without scoring every row
// (context/assemble.cypher). Included where the RETENTION_TOP placeholder stands (cypher.compose).
// Takes, bound by the retention arms' pipeline (it carries `arm`, `family`, `role` and `pool` through):
//   lists  five lists of the arm's eligible rows (visibility and RecallQualityOK already asked), each the top
//          `depth` by one property, descending: [recall_count, accessed_at, created_at, trust, updated_at]
//   depth  the length each list was read to (the LIMIT its COLLECT took: $cand_first, then $cand)
//   pool   rows always ranked (the profile's kernels), or []
//   n      the arm's limit
// Yields `top` (the rows, in the arm's order: kernels first, then RetentionScore ↓, updated_at ↓, id ↓) and
// `exact`.
// Why `exact` proves it: RetentionScore never falls when recall_count, accessed_at, created_at or trust rises
// (digest/retention.py: each term is monotone, and so are the floating-point steps that add, scale and clamp
// them). A row in no list has each property at or below that list's last value, so its score is at most the
// score of a row made of those last values (the bound; its accessed_at is the later of the accessed and created
// lists' last values, because the recency term reads the later of the two), and since the updated list is read in
// the arm's tie order (updated_at ↓, id ↓: the index ends in id), it comes after that list's last row in that
// order. If the n-th ranked row scores above the bound, or equal and not after the updated list's last row, no row
// outside the lists can take its place: the answer is the one scoring every row gives. So ties (a bulk import:
// one timestamp, one trust, no recalls) prove exact too: the n-th row is then within the updated list. A list shorter than
// `depth` saw every eligible row (every artifact has the five properties), so then the union is every row.
// Otherwise `exact` is false and the arm reads longer lists or scores every row itself.
WITH arm, family, role, lists, pool, n, all(l IN lists WHERE size(l) >= depth) AS full
CALL (lists, pool) {
  UNWIND reduce(acc = pool, l IN lists | acc + l) AS a
  WITH DISTINCT a
  CALL (a) {
    WITH a AS m
    RETURN {{RETENTION_SCORE}} AS retention
  }
  WITH a, retention ORDER BY CASE a.family WHEN 'agent_kernel' THEN 0 WHEN 'world_kernel' THEN 1 ELSE 2 END,
                             retention DESC, a.updated_at DESC, a.id DESC
  RETURN collect({a: a, retention: retention}) AS scored
}
WITH arm, family, role, pool, lists, n, full, scored[..n] AS ranked
WITH arm, family, role, pool, lists, n, full, ranked, last(ranked) AS nth,
     CASE WHEN full THEN {
       recall_count: last(lists[0]).recall_count,
       accessed_at: CASE WHEN last(lists[1]).accessed_at > last(lists[2]).created_at
                         THEN last(lists[1]).accessed_at ELSE last(lists[2]).created_at END,
       created_at: last(lists[2]).created_at,
       trust: last(lists[3]).trust,
       updated_at: last(lists[4]).updated_at,
       id: last(lists[4]).id
     } END AS m
WITH arm, family, role, pool, n, full, ranked, nth, m.updated_at AS bound_updated, m.id AS bound_id,
     CASE WHEN m IS NOT NULL THEN {{RETENTION_SCORE}} END AS bound
WITH arm, family, role, pool, n, [x IN ranked | x.a] AS top,
     (n = 0 OR NOT full
      OR (size(ranked) = n AND (nth.a.family IN ['agent_kernel', 'world_kernel']
                                OR nth.retention > bound
                                OR (nth.retention = bound AND (nth.a.updated_at > bound_updated
                                                              OR (nth.a.updated_at = bound_updated
                                                                  AND nth.a.id >= bound_id)))))) AS exact
