// Update as a new revision, with optimistic concurrency. The revision keeps the record's state after the change
// (fragment REVISION_STATE). Params: $scope_id, $id, $families, $expected (revision), $changes (map), $now,
// $actor, $event_id
// Concurrency rule (lock by write, then read), the same in every query that reads, checks and writes:
// `SET a._lock = true` takes the node's write lock (held to commit; `REMOVE a._lock` right after leaves no trace),
// and every property the check depends on is read after it through `apoc.any.properties(a)`. A plain `a.revision`
// is not enough: the planner reads properties into a cache where it first meets the node (here the index seek,
// before any lock) and serves later reads from it — even `properties(a)` is served from that cache — so the
// revision compared would be the one from before the last commit (8 concurrent If-Match updates all won). A
// function call is opaque to the planner and reads what is committed after the lock. Only immutable properties
// (id, scope_id, family) are read before the lock. So of N concurrent updates naming one revision exactly one
// wins and the rest answer 412 with its revision. A concurrent delete turns the node into a tombstone, which the
// label check after the lock sees. tests/integration/test_lock_plans.py fails when a guarded property is read
// before the lock.
// guards: a.revision, a.status, a.kind, a.valid_from, a.valid_until, a.updated_at
// The scope's write policy applies to updates too: `deny` refuses them (`require_approval` governs new
// records only, so an approved record is not hidden again by an edit).
OPTIONAL MATCH (a:Artifact {id: $id}) WHERE a.scope_id = $scope_id AND a.family IN $families
SET a._lock = true
WITH a, apoc.any.properties(a) AS locked, a:Artifact AS live
REMOVE a._lock
WITH CASE WHEN live THEN a END AS a, CASE WHEN live THEN locked.revision END AS current, locked.kind AS kind,
     {{CHANGE_AT}} AS at,
     // valid time after the change: a validity must end after it begins
     coalesce($changes.valid_until, locked.valid_until) > coalesce($changes.valid_from, locked.valid_from)
       OR coalesce($changes.valid_until, locked.valid_until) IS NULL AS ordered
OPTIONAL MATCH (s:Scope {id: $scope_id})
WITH a, current, ordered, at, apoc.convert.fromJsonMap(coalesce(s.write_policy, '{}')) AS policy, kind
WITH a, current, ordered, at,
     coalesce(policy.by_kind[coalesce(kind, '')], policy.by_family[a.family], policy.default, 'auto') = 'deny' AS denied
OPTIONAL CALL (a, current, denied, ordered, at) {
  WITH a, at WHERE current = $expected AND NOT denied AND ordered
  OPTIONAL MATCH (a)-[:HAS_REVISION]->(prev:Revision {revision: current})
  SET a += $changes, a.revision = current + 1, a.updated_at = at
  // A keyed put may move a memory between tiers: whether a ranked context arm reads it (fragments/ranked.cypher)
  // follows, decided on the record as it now is (read after the lock, with this change)
  WITH a, prev, current, at, a AS node, apoc.any.properties(a, ['family', 'kind', 'tier']) AS revised
  CALL (node, revised) {
    WITH node, revised AS a
    SET node.ranked = {{RANKED}}
  }
  // A skill's searchable text is derived from its parts; the hash always from the content as stored.
  SET a.title = CASE a.family WHEN 'skill' THEN a.name ELSE a.title END,
      a.content = CASE a.family WHEN 'skill' THEN a.when_to_use + '\n' + apoc.text.join(a.steps, '\n')
                  ELSE a.content END
  SET a.content_hash = apoc.util.sha256([a.content])
  WITH a, prev, current, at
  CALL (a, prev, current, at) {
    WITH a AS x, prev, current, at
    CREATE (x)-[:HAS_REVISION]->(rev:Revision)
    SET rev = {{REVISION_STATE}}, rev.revision = current + 1, rev.at = at, rev.actor = $actor
    FOREACH (p IN CASE WHEN prev IS NULL THEN [] ELSE [prev] END | CREATE (rev)-[:PREVIOUS]->(p))
  }
  CREATE (feed_ev:Event:Unsequenced {id: $event_id, op: 'update',
           at: at, actor: $actor, scope_id: a.scope_id, artifact_id: a.id,
                  family: a.family, revision: current + 1})
  SET feed_ev.namespace = COLLECT { MATCH (ns_s:Scope {id: feed_ev.scope_id}) RETURN ns_s.namespace }[0],
      feed_ev.db_at = datetime.realtime()
  RETURN a {.*, embedding: null, relations: [(a)-[r:RELATES_TO]->(b) | {type: r.type, to_id: b.id}]} AS updated
}
RETURN a IS NOT NULL AS found, denied, current, ordered, updated
