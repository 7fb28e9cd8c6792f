// SearchFilter(a): may the ranked row `a` be a hit of this search? Of the scope, its families and statuses;
// the typed filters ($q.kind, $q.tier, $q.tag; null = none); valid at $as_of unless $q.any_time (include_invalid:
// fragment VALID_AT); occurred within [$q.occurred_from, $q.occurred_to) (null = open). Checked on the live node
// by every ranking branch of fragments/hybrid_rank.cypher before ranks are given. A predicate over `a`.
a.scope_id = $scope_id AND a.family IN $families AND a.status IN $statuses
AND ($q.kind IS NULL OR a.kind = $q.kind) AND ($q.tier IS NULL OR a.tier = $q.tier)
AND ($q.tag IS NULL OR $q.tag IN a.tags)
AND ($q.any_time OR {{VALID_AT}})
AND ($q.occurred_from IS NULL OR a.occurred_at >= $q.occurred_from)
AND ($q.occurred_to IS NULL OR a.occurred_at < $q.occurred_to)
