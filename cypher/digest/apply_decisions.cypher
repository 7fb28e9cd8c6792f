// Apply one batch of digest / GC decisions in one transaction: each decision becomes a graph fact
// (:DigestPass)-[:DECIDED]->(:Decision {action, rule})-[:ABOUT]->(artifact), (:Decision)-[:CITES]->(evidence),
// and its action is applied in the same transaction (archive: status 'archived'; remove: the artifact
// becomes a :Tombstone). Idempotent: a decision whose artifact is no longer in the expected status (already
// applied by an interrupted run of the same pass) is skipped, and decision ids are MERGEd.
// Params: $pass_id, $now, $actor, $decisions: [{id, artifact_id, action, rule, rules, cites, path, expect}]
MATCH (p:DigestPass {id: $pass_id})
UNWIND $decisions AS d
MATCH (a:Artifact {id: d.artifact_id}) WHERE a.status = d.expect
MERGE (dec:Decision {id: d.id})
ON CREATE SET dec.action = d.action, dec.rule = d.rule, dec.rules = d.rules, dec.path = d.path, dec.at = $now,
              dec.scope_id = a.scope_id, dec.pass_id = $pass_id, dec.detail = d.detail
MERGE (p)-[:DECIDED]->(dec)
MERGE (dec)-[:ABOUT]->(a)
WITH p, d, dec, a
CALL (dec, d) {
  UNWIND d.cites AS cid
  OPTIONAL MATCH (x:Artifact {id: cid})
  OPTIONAL MATCH (t:Tombstone {id: cid})
  WITH dec, coalesce(x, t) AS e WHERE e IS NOT NULL
  MERGE (dec)-[:CITES]->(e)
  RETURN count(*) AS cited
}
CALL (a, d, p) {
  WITH a WHERE d.action = 'archive'
  SET a.status = 'archived', a.archived_at = $now, a.archived_by = p.id
  CREATE (:Event {id: d.event_id, op: 'archive', at: $now, actor: $actor, scope_id: a.scope_id, artifact_id: a.id,
                  family: a.family, reason: d.rule, pass_id: p.id})
  RETURN count(*) AS archived
}
CALL (a, d, p) {
  WITH a WHERE d.action = 'remove'
  OPTIONAL MATCH (a)-[:HAS_REVISION]->(r:Revision)
  WITH a, collect(r) AS revisions
  FOREACH (r IN revisions | DETACH DELETE r)
  WITH a, a.family AS family
  REMOVE a:Artifact:Memory:Knowledge:Skill:WorkingState
  SET a:Tombstone
  SET a = {id: a.id, scope_id: a.scope_id, family: family, status: 'removed', removed_at: $now,
           removed_by: $actor, reason: d.rule, pass_id: p.id}
  CREATE (:Event {id: d.event_id, op: 'remove', at: $now, actor: $actor, scope_id: a.scope_id, artifact_id: a.id,
                  family: family, reason: d.rule, pass_id: p.id})
  RETURN count(*) AS removed
}
RETURN count(DISTINCT dec) AS applied
