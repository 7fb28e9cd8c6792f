// Derived view `lineage`: where this artifact comes from and what came of it — DERIVED_FROM ancestry and
// descendants, DEPENDS_ON both ways, supersession, knowledge relations, revision count. Read-only.
// Params: $scope_id, $id, $families
OPTIONAL MATCH (a:Artifact {id: $id}) WHERE a.scope_id = $scope_id AND a.family IN $families
OPTIONAL MATCH (t:Tombstone {id: $id}) WHERE t.scope_id = $scope_id AND t.family IN $families
WITH coalesce(a, t) AS a WHERE a IS NOT NULL
RETURN {
  derived_from: [p = (a)-[:DERIVED_FROM*1..8]->(x) | {id: x.id, family: x.family, status: coalesce(x.status, 'removed'),
                                                      depth: length(p)}],
  derivatives: [p = (x)-[:DERIVED_FROM*1..8]->(a) | {id: x.id, family: x.family, status: coalesce(x.status, 'removed'),
                                                     depth: length(p)}],
  depends_on: [(a)-[:DEPENDS_ON]->(x) | {id: x.id, family: x.family, status: coalesce(x.status, 'removed')}],
  dependents: [(x)-[:DEPENDS_ON]->(a) | {id: x.id, family: x.family, status: coalesce(x.status, 'removed')}],
  supersedes: [(a)-[:SUPERSEDES]->(x) | x.id],
  superseded_by: [(x)-[:SUPERSEDES]->(a) | x.id],
  relations: [(a)-[r:RELATES_TO]-(x) | {type: r.type, id: x.id,
                                         direction: CASE WHEN startNode(r) = a THEN 'out' ELSE 'in' END}],
  revisions: COUNT { (a)-[:HAS_REVISION]->(:Revision) }
} AS view
