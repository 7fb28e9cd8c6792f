// Explicit search: full-text (cjk analyzer) confined to one scope, family and statuses inside the Lucene
// query itself ($lucene is built by the service from escaped user text). Deliberately NOT behind
// RecallQualityOK: stale and conflicted rows are returned with their flags. Pending rows and working state
// never. Each hit counts as a recall. Params: $lucene, $fetch, $scope_id, $families, $statuses, $kind,
// $tier, $tag, $limit, $now, $recall
CALL db.index.fulltext.queryNodes('artifact_text', $lucene, {limit: $fetch}) YIELD node AS a, score
WHERE a.scope_id = $scope_id AND a.family IN $families AND a.status IN $statuses
  AND ($kind IS NULL OR a.kind = $kind)
  AND ($tier IS NULL OR a.tier = $tier)
  AND ($tag IS NULL OR $tag IN a.tags)
WITH a, score ORDER BY score DESC, a.id LIMIT $limit
FOREACH (_ IN CASE WHEN $recall THEN [1] ELSE [] END |
  SET a.recall_count = coalesce(a.recall_count, 0) + 1, a.accessed_at = $now)
RETURN a {.*, relations: [(a)-[r:RELATES_TO]->(b) | {type: r.type, to_id: b.id}]} AS artifact, score
