// Import: one batch of revisions, each hung on its artifact (created earlier in the same transaction).
// Params: $rows: [{artifact_id, props: {...}}]
UNWIND $rows AS row
MATCH (a:Artifact {id: row.artifact_id})
CREATE (a)-[:HAS_REVISION]->(r:Revision)
SET r = row.props
RETURN count(r) AS created
