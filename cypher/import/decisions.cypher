// Import: one batch of decisions: (:DigestPass)-[:DECIDED]->(:Decision)-[:ABOUT]->(artifact or tombstone),
// (:Decision)-[:CITES]->(evidence). Params: $rows: [{pass_id, about, cites: [ids], props}]
UNWIND $rows AS row
MATCH (p:DigestPass {id: row.pass_id})
CALL (row) {
  MATCH (x:Artifact {id: row.about}) RETURN x
  UNION
  MATCH (x:Tombstone {id: row.about}) RETURN x
}
CREATE (p)-[:DECIDED]->(d:Decision)-[:ABOUT]->(x)
SET d = row.props
WITH d, row
CALL (d, row) {
  UNWIND row.cites AS cid
  CALL (cid) {
    MATCH (e:Artifact {id: cid}) RETURN e
    UNION
    MATCH (e:Tombstone {id: cid}) RETURN e
  }
  CREATE (d)-[:CITES]->(e)
  RETURN count(*) AS cited
}
RETURN count(d) AS created, sum(cited) AS cited
