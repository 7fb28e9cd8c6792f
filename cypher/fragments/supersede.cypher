// kind: clauses
// Fragment SUPERSEDE: the newer record `a` supersedes the older `o` (same scope and family). Included by
// artifact/save.cypher (the negation rule at save time), artifact/supersede.cypher (an explicit `supersedes`) and
// digest/supersede.cypher (the digest's negation rule). Bound by the caller: `a`, `o` (already locked by a write),
// `was` (o's properties read after that lock: apoc.any.properties), `now` (the change's time).
// Valid time: o's validity is closed at a's valid_from — never reopened or moved later: a validity that already
// ends sooner keeps its end. The caller has checked that o's validity began before a's. Record time: o gets its
// next revision (the state it now has, fragment REVISION_STATE) and a `supersede` event; nothing of o is lost, it
// stays readable (flagged conflicted) and every earlier revision stays. Yields a row per superseded o.
// Params: $actor
WITH a, o, was, coalesce(a.valid_from, a.occurred_at, a.created_at) AS begins,
     // the change's record time: after o's last change (fragment CHANGE_AT, here over `now`)
     CASE WHEN was.updated_at >= now THEN was.updated_at + duration({microseconds: 1}) ELSE now END AS changed
WITH a, o, was, changed,
     CASE WHEN was.valid_until IS NOT NULL AND was.valid_until <= begins THEN was.valid_until ELSE begins END AS until
SET o.valid_until = until, o.conflicted = true, o.revision = was.revision + 1, o.updated_at = changed
MERGE (a)-[:SUPERSEDES]->(o)
WITH a, o, was, changed
OPTIONAL MATCH (o)-[:HAS_REVISION]->(prev:Revision {revision: was.revision})
CALL (a, o, prev, was, changed) {
  WITH o AS x, prev, was, changed
  CREATE (x)-[:HAS_REVISION]->(rev:Revision)
  SET rev = {{REVISION_STATE}}, rev.revision = was.revision + 1, rev.at = changed, rev.actor = $actor
  FOREACH (p IN CASE WHEN prev IS NULL THEN [] ELSE [prev] END | CREATE (rev)-[:PREVIOUS]->(p))
  CREATE (feed_ev:Event:Unsequenced {id: randomUUID(), op: 'supersede',
           at: changed, actor: $actor, scope_id: x.scope_id,
                  artifact_id: x.id, family: x.family, revision: was.revision + 1, by: a.id,
                  valid_until: x.valid_until})
  SET feed_ev.namespace = COLLECT { MATCH (ns_s:Scope {id: feed_ev.scope_id}) RETURN ns_s.namespace }[0],
      feed_ev.db_at = datetime.realtime()
}
