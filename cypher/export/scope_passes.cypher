// Export, line type `digest_pass`: the digest and GC passes that decided something about the scope (a pass
// works on a partition; only its scope's decisions travel with it), in id order after $after. The lease is
// bookkeeping of a running pass, not history: left out. Params: $scope_id, $after, $limit
MATCH (:Decision {scope_id: $scope_id})<-[:DECIDED]-(p:DigestPass)
WITH DISTINCT p WHERE p.id > $after
WITH p ORDER BY p.id LIMIT $limit
RETURN p {.*, lease_until: null} AS row, p.id AS k
