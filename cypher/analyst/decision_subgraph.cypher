// Neo4j Browser: the decision subgraph of one artifact — the passes that decided about it, each decision,
// the evidence it cites, and the DEPENDS_ON path to the broken reference. Shows as a graph.
// :param id => 'the artifact id'
MATCH (p:DigestPass)-[r1:DECIDED]->(d:Decision)-[r2:ABOUT]->(a {id: $id})
OPTIONAL MATCH (d)-[r3:CITES]->(e)
OPTIONAL MATCH path = (a)-[:DEPENDS_ON*1..16]->(e)
RETURN p, r1, d, r2, a, r3, e, path
