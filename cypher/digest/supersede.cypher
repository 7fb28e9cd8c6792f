// Supersession (INV-MEM-30) inside one partition, scope by scope: a newer active memory that explicitly
// negates (negating = true) an older, non-negating active memory with the same subject marks the older one
// conflicted and writes (newer)-[:SUPERSEDES]->(older). Never across scopes or partitions.
// Params: $namespace, $owner
MATCH (s:Scope {namespace: $namespace, cognitive_owner: $owner})
MATCH (n:Artifact {scope_id: s.id, negating: true}) USING INDEX n:Artifact(scope_id, negating)
WHERE n.family = 'memory' AND n.status = 'active' AND n.subject IS NOT NULL
MATCH (o:Artifact {scope_id: s.id, subject: n.subject}) USING INDEX o:Artifact(scope_id, subject)
WHERE o.family = 'memory' AND o.status = 'active' AND coalesce(o.negating, false) = false
  AND o.created_at <= n.created_at AND o.id <> n.id AND NOT coalesce(o.conflicted, false)
MERGE (n)-[:SUPERSEDES]->(o)
SET o.conflicted = true
RETURN count(DISTINCT o) AS superseded
