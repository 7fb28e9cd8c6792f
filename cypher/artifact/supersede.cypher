// Explicit supersession: the record $by (just saved, or just updated, in this transaction) supersedes each record
// of $ids of its own scope and family (fragment SUPERSEDE: the older one's validity closes at $by's valid_from,
// it is flagged conflicted and gets a revision and an event; nothing of it is lost). An id of another scope or
// family, a tombstone or $by itself is not found; an older record whose validity does not begin before $by's is
// refused (`ordered` false). The caller rolls the whole write back on either.
// Params: $scope_id, $by, $ids, $now, $actor
// Concurrency rule (lock by write, then read; see artifact/update.cypher): each older record is locked by a write
// and read after the lock, so a concurrent update of it or another supersession is never overwritten: the
// revision written is the one after what is committed.
// guards: o.revision, o.valid_until, o.valid_from
MATCH (a:Artifact {id: $by}) WHERE a.scope_id = $scope_id
UNWIND $ids AS oid
OPTIONAL MATCH (o:Artifact {id: oid}) WHERE o.scope_id = $scope_id AND o.family = a.family AND o.id <> a.id
SET o._lock = true
WITH a, oid, o, apoc.any.properties(o) AS was
REMOVE o._lock
WITH a, oid, CASE WHEN o:Artifact THEN o END AS o, was, $now AS now
WITH a, oid, o, was, now, o IS NOT NULL AND coalesce(was.valid_from, was.created_at) < a.valid_from AS ordered
CALL (a, o, was, now, ordered) {
  WITH a, o, was, now WHERE ordered
  {{SUPERSEDE}}
  RETURN count(*) AS superseded
}
RETURN oid AS id, o IS NOT NULL AS found, ordered
