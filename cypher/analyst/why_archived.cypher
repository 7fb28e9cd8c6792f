// Neo4j Browser (table): why one artifact was archived, removed or kept — one row per decision, oldest first:
// the pass, the action, the rule that decided (and every rule that matched), the DEPENDS_ON evidence path from
// the artifact to the broken node, the broken reference, and each cited piece of evidence with what it is now
// (tombstone, archived, conflicted, superseding entry, supporter).
// :param id => 'the artifact id'
OPTIONAL MATCH (live:Artifact {id: $id})
OPTIONAL MATCH (gone:Tombstone {id: $id})
WITH coalesce(live, gone) AS a WHERE a IS NOT NULL
MATCH (p:DigestPass)-[:DECIDED]->(d:Decision)-[:ABOUT]->(a)
RETURN d.at AS at, p.kind AS pass_kind, p.id AS pass_id, d.action AS action, d.rule AS rule, d.rules AS rules,
       d.path AS evidence_path,
       CASE WHEN size(d.path) > 1 THEN last(d.path) END AS broken_reference,
       [(d)-[:CITES]->(e) | {id: e.id, family: e.family,
                             is: CASE WHEN e:Tombstone THEN 'tombstone'
                                      WHEN d.rule = 'conflicted' THEN 'superseding entry'
                                      WHEN d.rule = 'healthy_inbound_support' THEN 'supporter'
                                      WHEN e.conflicted THEN 'conflicted'
                                      ELSE e.status END}] AS evidence,
       d.detail AS detail
ORDER BY at
