// Import: the [:PREVIOUS] chain between revisions of one artifact. Params: $rows: [{artifact_id, revision, previous}]
UNWIND $rows AS row
MATCH (a:Artifact {id: row.artifact_id})-[:HAS_REVISION]->(r:Revision {revision: row.revision})
MATCH (a)-[:HAS_REVISION]->(p:Revision {revision: row.previous})
CREATE (r)-[:PREVIOUS]->(p)
RETURN count(*) AS created
