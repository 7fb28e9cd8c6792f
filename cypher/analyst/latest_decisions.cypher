// Neo4j Browser (graph): the latest decisions of every partition — a first look at the decision graph,
// (:DigestPass)-[:DECIDED]->(:Decision)-[:ABOUT]->(artifact) and (:Decision)-[:CITES]->(evidence).
// No parameters.
MATCH (p:DigestPass)-[r1:DECIDED]->(d:Decision)-[r2:ABOUT]->(a)
WITH p, r1, d, r2, a ORDER BY d.at DESC LIMIT 25
OPTIONAL MATCH (d)-[r3:CITES]->(e)
RETURN p, r1, d, r2, a, r3, e
