// Broken references of one artifact: every DEPENDS_ON path (direct or transitive) from it that ends at the
// first broken node on the way — a tombstone, or an archived, removed or conflicted artifact. Returns the
// evidence path (node ids, first = the artifact), not just yes/no. Params: $scope_id, $id
MATCH (a:Artifact {id: $id}) WHERE a.scope_id = $scope_id
MATCH p = (a)-[:DEPENDS_ON*1..16]->(x)
WHERE (x:Tombstone OR x.status IN ['archived', 'removed'] OR x.conflicted = true)
  AND all(n IN nodes(p)[1..-1] WHERE NOT (n:Tombstone OR n.status IN ['archived', 'removed'] OR n.conflicted = true))
RETURN [n IN nodes(p) | n.id] AS path,
       x.id AS broken_id,
       CASE WHEN x:Tombstone THEN 'tombstone' WHEN x.conflicted = true THEN 'conflicted' ELSE x.status END AS reason
ORDER BY length(p), broken_id
