// Export, line type `decision`: the scope's digest / GC decisions with their pass, the artifact (or tombstone)
// they are about and the evidence they cite (ids, sorted), in id order after $after.
// Params: $scope_id, $after, $limit
MATCH (d:Decision {scope_id: $scope_id})
WHERE d.id > $after
WITH d ORDER BY d.id LIMIT $limit
RETURN d {.*, pass_id: [(p:DigestPass)-[:DECIDED]->(d) | p.id][0], about: [(d)-[:ABOUT]->(x) | x.id][0],
          cites: apoc.coll.sort([(d)-[:CITES]->(x) | x.id])} AS row, d.id AS k
