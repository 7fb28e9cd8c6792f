// Neo4j Browser (graph): why one artifact was archived, removed or kept — the passes that decided about it,
// each decision (captioned with its rule), the evidence it cites (the broken reference, a tombstone, the
// superseding entry, the supporters) and the exact DEPENDS_ON evidence path the decision recorded.
// :param id => 'the artifact id'
OPTIONAL MATCH (live:Artifact {id: $id})
OPTIONAL MATCH (gone:Tombstone {id: $id})
WITH coalesce(live, gone) AS a WHERE a IS NOT NULL
MATCH (p:DigestPass)-[r1:DECIDED]->(d:Decision)-[r2:ABOUT]->(a)
OPTIONAL MATCH (d)-[r3:CITES]->(e)
OPTIONAL MATCH path = (a)-[:DEPENDS_ON*1..16]->(e) WHERE [n IN nodes(path) | n.id] = d.path
RETURN p, r1, d, r2, a, r3, e, path
