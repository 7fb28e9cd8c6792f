// Save one or many artifacts into one scope, in one transaction (batches via UNWIND).
// The scope's write policy is read here, in the same round trip: `deny` for any row refuses the whole
// batch (nothing written); `require_approval` stores the row as `pending`.
// Each row gets revision 1 ((:Artifact)-[:HAS_REVISION]->(:Revision)) and a `save` event.
// Params: $scope_id, $now (ISO-8601 text), $actor,
//         $rows: [{labels: ['Artifact', <family label>], props: {...}, at (ISO-8601 text: the row's created_at,
//                  updated_at and accessed_at), times: {occurred_at, valid_from, valid_until} (ISO-8601 text or
//                  null), event_id, relations: [{type, to_id}]}]
// Times travel as text and become DateTimes here (graph/artifacts.py `wire_row`: the same values, cheaper to send).
// guards: o.revision, o.valid_until
MATCH (s:Scope {id: $scope_id}) WHERE s.deleting IS NULL
WITH s, datetime($now) AS now, apoc.convert.fromJsonMap(coalesce(s.write_policy, '{}')) AS policy
WITH s, now, [row IN $rows | row {.*, mode: coalesce(policy.by_kind[coalesce(row.props.kind, '')],
                                                 policy.by_family[row.props.family], policy.default, 'auto')}] AS rows
WITH s, now, rows, [r IN rows WHERE r.mode = 'deny' | r.props.family + coalesce('/' + r.props.kind, '')] AS denied
OPTIONAL CALL (s, rows, denied, now) {
  WITH s.namespace AS namespace, rows, now WHERE size(denied) = 0
  UNWIND rows AS row
  WITH namespace, row, now, datetime(row.at) AS at
  CREATE (a:$(row.labels))
  // A row the learned detector holds (props.hold_reason, set by the service) is quarantined: pending.
  SET a = row.props, a.created_at = at, a.updated_at = at, a.accessed_at = at,
      a.occurred_at = datetime(row.times.occurred_at), a.valid_from = datetime(row.times.valid_from),
      a.valid_until = datetime(row.times.valid_until),
      a.status = CASE WHEN row.mode = 'require_approval' OR row.props.hold_reason IS NOT NULL
                      THEN 'pending' ELSE 'active' END
  SET a.ranked = {{RANKED}}  // read by a retention-ranked context arm (fragments/ranked.cypher)
  WITH a, row, now, namespace
  CALL (a, now) {
    WITH a AS x, now
    CREATE (x)-[:HAS_REVISION]->(rev:Revision)
    SET rev = {{REVISION_STATE}}, rev.revision = 1, rev.at = now, rev.actor = $actor
  }
  // The feed's event (:Unsequenced until the sequencer numbers it: cypher/events/sequence.cypher).
  CREATE (:Event:Unsequenced {id: row.event_id, op: 'save', at: now, actor: $actor, scope_id: a.scope_id,
                              artifact_id: a.id, family: a.family, revision: 1, status: a.status,
                              hold_reason: a.hold_reason, namespace: namespace, db_at: datetime.realtime()})
  WITH a, row, now
  // Supersession at save time (INV-MEM-30): a new active memory that negates an older, non-negating
  // active memory with the same subject, in the same scope, whose validity began before the new one's, closes
  // that validity and supersedes it (fragment SUPERSEDE). Concurrency rule (lock by write, then read; see
  // artifact/update.cypher): the candidates are locked by a write and checked again on what is committed after
  // the lock, so a concurrent update or supersession of the older record is never overwritten: its revision moves
  // on from the one committed.
  CALL (a, now) {
    WITH a, now WHERE a.family = 'memory' AND a.negating = true AND a.subject IS NOT NULL AND a.status = 'active'
    MATCH (o:Artifact {scope_id: a.scope_id, subject: a.subject})
    // Hinted: a plan cached while the database was empty would otherwise scan every artifact per row until
    // the planner's statistics-divergence replan (seconds per batch on a fresh server).
    USING INDEX o:Artifact(scope_id, subject)
    WHERE o.family = 'memory' AND o.status = 'active' AND coalesce(o.negating, false) = false AND o.id <> a.id
      AND NOT coalesce(o.conflicted, false)
    SET o._lock = true
    WITH a, o, now, apoc.any.properties(o) AS was
    REMOVE o._lock
    WITH a, o, now, was
    WHERE o:Artifact AND was.status = 'active' AND NOT coalesce(was.conflicted, false)
      AND coalesce(was.valid_from, was.created_at) < a.valid_from
    {{SUPERSEDE}}
    RETURN count(o) AS superseded
  }
  CALL (a, row) {
    UNWIND row.relations AS rel
    MATCH (b:Artifact {id: rel.to_id}) WHERE b.scope_id = a.scope_id AND b.family = a.family
    CREATE (a)-[:RELATES_TO {type: rel.type}]->(b)
    RETURN count(*) AS linked
  }
  // Only what the database decided (status, relations made) goes back: the caller holds the rest of each row,
  // and shipping whole nodes back is a third of a big batch's time.
  RETURN collect({id: a.id, status: a.status, conflicted: a.conflicted, linked: linked,
                  relations: [(a)-[r:RELATES_TO]->(b) | {type: r.type, to_id: b.id}]}) AS saved
}
RETURN denied, coalesce(saved, []) AS saved
