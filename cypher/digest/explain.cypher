// Why was this artifact archived or removed? Every decision about it (by id, whichever scope), with its
// pass, rule, evidence path and the cited evidence (broken target, superseding entry, supporters).
// Paste into Neo4j Browser with :param id => '…'. Params: $id
OPTIONAL MATCH (a:Artifact {id: $id})
OPTIONAL MATCH (t:Tombstone {id: $id})
WITH coalesce(a, t) AS a WHERE a IS NOT NULL
RETURN a.id AS id, a.scope_id AS scope_id, a.family AS family, coalesce(a.status, 'removed') AS status,
       COLLECT {
         MATCH (p:DigestPass)-[:DECIDED]->(d:Decision)-[:ABOUT]->(a)
         RETURN {pass_id: p.id, pass_kind: p.kind, phase: p.phase, pass_state: p.state, action: d.action,
                 rule: d.rule, rules: d.rules, at: d.at, path: d.path,
                 cites: [(d)-[:CITES]->(e) | {id: e.id, family: e.family, status: coalesce(e.status, 'removed'),
                                              tombstone: e:Tombstone}]}
         ORDER BY d.at
       } AS decisions
