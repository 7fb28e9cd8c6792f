// Neo4j Browser (graph): where a memory (or knowledge page, skill) comes from and what came of it — its
// revisions (HAS_REVISION, chained newest to oldest by PREVIOUS), its DERIVED_FROM ancestry and descendants,
// what it DEPENDS_ON and what depends on it (up to 8 hops each way), tombstones included. One path a row.
// :param id => 'the artifact id'
OPTIONAL MATCH (live:Artifact {id: $id})
OPTIONAL MATCH (gone:Tombstone {id: $id})
WITH coalesce(live, gone) AS a WHERE a IS NOT NULL
OPTIONAL CALL (a) {
  MATCH path = (a)-[:HAS_REVISION]->(:Revision) RETURN path
  UNION ALL
  MATCH path = (a)-[:HAS_REVISION]->(:Revision)-[:PREVIOUS]->(:Revision) RETURN path
  UNION ALL
  MATCH path = (a)-[:DERIVED_FROM*1..8]->() RETURN path
  UNION ALL
  MATCH path = ()-[:DERIVED_FROM*1..8]->(a) RETURN path
  UNION ALL
  MATCH path = (a)-[:DEPENDS_ON*1..8]->() RETURN path
  UNION ALL
  MATCH path = ()-[:DEPENDS_ON*1..8]->(a) RETURN path
}
RETURN a, path LIMIT 500
