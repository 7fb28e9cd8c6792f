// Neo4j Browser: a pass's whole outcome — decisions by action and rule, then every decision with its
// artifact and evidence. :param pass_id => 'the pass id'
MATCH (p:DigestPass {id: $pass_id})-[:DECIDED]->(d:Decision)-[:ABOUT]->(a)
OPTIONAL MATCH (d)-[:CITES]->(e)
RETURN p.kind AS kind, p.phase AS phase, p.state AS state, d.action AS action, d.rule AS rule,
       count(DISTINCT d) AS decisions, collect(DISTINCT a.id)[0..20] AS sample_artifacts,
       collect(DISTINCT e.id)[0..20] AS sample_evidence
ORDER BY action, rule
