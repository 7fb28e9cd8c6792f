// Dependency health of one artifact: healthy when no DEPENDS_ON path from it reaches a broken node.
// Returns the health and, when unhealthy, the shortest evidence path. Params: $id
MATCH (a:Artifact {id: $id})
OPTIONAL MATCH p = SHORTEST 1 (a)-[:DEPENDS_ON]->+(x)
  WHERE x:Tombstone OR x.status IN ['archived', 'removed'] OR x.conflicted = true
RETURN a.id AS id, p IS NULL AS healthy, [n IN nodes(p) | n.id] AS path
