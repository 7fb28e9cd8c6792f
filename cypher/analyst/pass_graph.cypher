// Neo4j Browser: a pass as a graph (pass → decisions → artifacts → evidence), first 300 decisions.
// :param pass_id => 'the pass id'
MATCH (p:DigestPass {id: $pass_id})-[r1:DECIDED]->(d:Decision)-[r2:ABOUT]->(a)
WITH p, r1, d, r2, a LIMIT 300
OPTIONAL MATCH (d)-[r3:CITES]->(e)
RETURN p, r1, d, r2, a, r3, e
