// Derived view `invalidation`: what, if anything, makes this artifact no longer good — its flags, who
// supersedes it, and its broken references (as evidence paths; the same rule as
// refgraph/broken_references.cypher, for one artifact). Read-only. Params: $scope_id, $id, $families
OPTIONAL MATCH (a:Artifact {id: $id}) WHERE a.scope_id = $scope_id AND a.family IN $families
OPTIONAL MATCH (t:Tombstone {id: $id}) WHERE t.scope_id = $scope_id AND t.family IN $families
WITH coalesce(a, t) AS a WHERE a IS NOT NULL
RETURN {
  status: coalesce(a.status, 'removed'),
  stale: coalesce(a.stale, false),
  conflicted: coalesce(a.conflicted, false),
  superseded_by: [(x)-[:SUPERSEDES]->(a) | x.id],
  broken_references: [p = (a)-[:DEPENDS_ON*1..16]->(x)
      WHERE (x:Tombstone OR x.status IN ['archived', 'removed'] OR x.conflicted = true)
        AND all(n IN nodes(p)[1..-1] WHERE NOT (n:Tombstone OR n.status IN ['archived', 'removed'] OR n.conflicted = true))
      | {path: [n IN nodes(p) | n.id], broken_id: x.id,
         reason: CASE WHEN x:Tombstone THEN 'tombstone' WHEN x.conflicted = true THEN 'conflicted' ELSE x.status END}]
} AS view
