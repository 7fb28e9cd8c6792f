// Supersession (INV-MEM-30) inside one partition, scope by scope: a newer active memory that explicitly
// negates (negating = true) an older, non-negating active memory with the same subject, whose validity began
// before the newer one's, closes the older one's validity at the newer one's valid_from, flags it conflicted and
// writes (newer)-[:SUPERSEDES]->(older), a revision and an event (fragment SUPERSEDE). Never across scopes or
// partitions. Params: $namespace, $owner, $now, $actor
// Concurrency rule (lock by write, then read; see artifact/update.cypher): each older memory is locked by a write
// and checked again on what is committed after the lock, so a concurrent update or supersession is never
// overwritten.
// guards: o.revision, o.valid_until, o.valid_from
MATCH (s:Scope {namespace: $namespace, cognitive_owner: $owner})
MATCH (n:Artifact {scope_id: s.id, negating: true}) USING INDEX n:Artifact(scope_id, negating)
WHERE n.family = 'memory' AND n.status = 'active' AND n.subject IS NOT NULL
MATCH (o:Artifact {scope_id: s.id, subject: n.subject}) USING INDEX o:Artifact(scope_id, subject)
WHERE o.family = 'memory' AND o.status = 'active' AND coalesce(o.negating, false) = false
  AND o.id <> n.id AND NOT coalesce(o.conflicted, false)
// one newer memory per older one: the earliest to begin after it (its validity closes there)
WITH o, n ORDER BY coalesce(n.valid_from, n.created_at), n.id
WITH o, collect(n) AS newer
SET o._lock = true
WITH o, newer, apoc.any.properties(o) AS was
REMOVE o._lock
WITH o, was, [x IN newer WHERE coalesce(x.valid_from, x.created_at) > coalesce(was.valid_from, was.created_at)][0] AS a
WHERE a IS NOT NULL AND o:Artifact AND was.status = 'active' AND NOT coalesce(was.conflicted, false)
WITH a, o, was, $now AS now
{{SUPERSEDE}}
RETURN count(DISTINCT o) AS superseded
