// kind: clauses
// Fragment APPLY_DECISIONS: write and apply the `decisions` a rules fragment (DIGEST_RULES, GC_RULES) produced,
// $batch per transaction (CALL { … } IN TRANSACTIONS), in the same query that decided them: the decided nodes
// and their evidence are at hand, nothing is looked up again or sent through the client.
// Each decision becomes a graph fact (:DigestPass)-[:DECIDED]->(:Decision {action, rule})-[:ABOUT]->(artifact),
// (:Decision)-[:CITES]->(evidence), and its action is applied in the same inner transaction (archive: status
// 'archived' and an Event; remove: the artifact becomes a :Tombstone, its revisions go, and an Event), so a
// pass stopped midway leaves every artifact either untouched or changed together with the decision that
// explains it. Idempotent, so a resumed or retried pass skips what is done: a decision whose artifact is no
// longer in the status it was decided on is not written again, nor (when $resumed: the pass, or an earlier run
// of its query, may have written some) one whose id exists. A first run has no decisions yet: it skips that
// lookup, one index seek per decision.
// Each inner transaction extends the pass's lease (by $lease from the database's clock) and answers one row:
// its decisions as one JSON list (`batch`). One record per batch, not per decision, and one string rather than
// thousands of small maps: the Python driver decodes a string of JSON several times faster (~75 ms less per
// 2.6k decisions).
// Params: $pass_id, $lease_id, $lease (duration), $now, $actor, $batch, $resumed (bool)
MATCH (p:DigestPass {id: $pass_id})
OPTIONAL MATCH (l:PartitionLease {id: $lease_id}) WHERE l.pass_id = $pass_id
UNWIND range(0, size(decisions) - 1, $batch) AS start
CALL (p, l, decisions, start) {
  SET p.lease_until = datetime.realtime() + $lease, l.lease_until = datetime.realtime() + $lease
  WITH p, decisions, start
  UNWIND decisions[start..start + $batch] AS d
  // The answer is projected before the writes (fragment DECISION_ANSWER says why).
  WITH p, d, {{DECISION_ANSWER}} AS answer
  CALL (p, d, answer) {
    // Concurrency rule (lock by write, then read; see artifact/update.cypher): the decided node is locked by a
    // write and its status read after the lock, so a restore, approve, delete or another pass that committed
    // since the rules read it makes this decision void (not written, not applied) instead of being overwritten.
    WITH p, d, answer, d.a AS x
    SET x._lock = true
    WITH p, d, answer, x, apoc.any.properties(x) AS locked
    REMOVE x._lock
    WITH p, d, answer, x AS a, locked, {{CHANGE_AT}} AS at
    WHERE a:Artifact AND locked.status = d.status
      AND (NOT $resumed OR NOT EXISTS { MATCH (:Decision {id: answer.id}) })
    CREATE (p)-[:DECIDED]->(dec:Decision {id: answer.id, action: d.action, rule: d.rule, rules: d.rules,
                                          path: d.path, at: $now, scope_id: d.scope_id,
                                          detail: d.detail})-[:ABOUT]->(a)
    FOREACH (e IN d.cites | CREATE (dec)-[:CITES]->(e))
    FOREACH (_ IN CASE d.action WHEN 'archive' THEN [1] ELSE [] END |
      SET a.status = 'archived', a.archived_at = at, a.archived_by = $pass_id, a.updated_at = at
      CREATE (feed_ev:Event:Unsequenced {id: randomUUID(), op: 'archive', at: at, actor: $actor, scope_id: d.scope_id,
                      artifact_id: d.id, family: d.family, reason: d.rule, pass_id: $pass_id})
      SET feed_ev.namespace = COLLECT { MATCH (ns_s:Scope {id: feed_ev.scope_id}) RETURN ns_s.namespace }[0],
          feed_ev.db_at = datetime.realtime())
    FOREACH (_ IN CASE d.action WHEN 'remove' THEN [1] ELSE [] END |
      FOREACH (rev IN [(a)-[:HAS_REVISION]->(x:Revision) | x] | DETACH DELETE rev)
      REMOVE a:Artifact:Memory:Knowledge:Skill:WorkingState
      SET a:Tombstone
      SET a = {id: d.id, scope_id: d.scope_id, family: d.family, status: 'removed', removed_at: at,
               removed_by: $actor, reason: d.rule, pass_id: $pass_id}
      CREATE (feed_ev:Event:Unsequenced {id: randomUUID(), op: 'remove', at: at, actor: $actor, scope_id: d.scope_id,
                      artifact_id: d.id, family: d.family, reason: d.rule, pass_id: $pass_id})
      SET feed_ev.namespace = COLLECT { MATCH (ns_s:Scope {id: feed_ev.scope_id}) RETURN ns_s.namespace }[0],
          feed_ev.db_at = datetime.realtime())
    RETURN count(dec) AS applied
  }
  RETURN apoc.convert.toJson(collect(answer)) AS batch, sum(applied) AS applied
} IN TRANSACTIONS OF 1 ROW
RETURN batch, applied, size(decisions) AS total
