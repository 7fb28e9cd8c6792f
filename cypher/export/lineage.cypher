// Export view `lineage` of one scope (GET /v1/scopes/{id}/graph?view=lineage, `cognition export graph`):
// every artifact and tombstone of the scope, each artifact's revisions ((:Artifact)-[:HAS_REVISION]->(:Revision),
// chained newest → older by [:PREVIOUS]) and the DERIVED_FROM / DEPENDS_ON edges among them. Read-only.
// Only nodes whose scope_id is $scope_id, and only edges between two of them.
// Answers one row: `found` (the scope exists), `node_count`, and — only while node_count <= $max_nodes —
// `nodes` [{key, labels, props}] and `edges` [{source, target, type, props}] (otherwise both empty), each as
// one JSON string (temporal values as ISO 8601): the driver decodes thousands of maps with DateTimes far slower.
// A node's key is its id (a revision's: <artifact id>@<revision>). Vectors never leave; the text fields
// (content, when_to_use, steps) only when $content.
// Params: $scope_id, $max_nodes, $content (bool)
OPTIONAL MATCH (s:Scope {id: $scope_id})
WITH s, COLLECT { MATCH (a:Artifact) WHERE a.scope_id = $scope_id RETURN a } +
        COLLECT { MATCH (t:Tombstone) WHERE t.scope_id = $scope_id RETURN t } AS things
WITH s, things, COLLECT { UNWIND things AS a MATCH (a)-[:HAS_REVISION]->(r:Revision) WHERE r.scope_id = $scope_id
                          RETURN r } AS revisions
WITH s, things + revisions AS found_nodes, size(things) + size(revisions) AS node_count
WITH s, node_count, CASE WHEN node_count <= $max_nodes THEN found_nodes ELSE [] END AS found_nodes
RETURN s IS NOT NULL AS found, node_count,
  apoc.convert.toJson(
  [n IN found_nodes | {key: CASE WHEN n:Revision THEN n.artifact_id + '@' + toString(n.revision) ELSE n.id END,
               labels: labels(n),
               props: n {.*, embedding: null, embedding_model: null, embedding_revision: null,
                         content: CASE WHEN $content THEN n.content END,
                         when_to_use: CASE WHEN $content THEN n.when_to_use END,
                         steps: CASE WHEN $content THEN n.steps END}}]) AS nodes,
  apoc.convert.toJson(COLLECT {
    UNWIND found_nodes AS n
    MATCH (n)-[e:HAS_REVISION|PREVIOUS|DERIVED_FROM|DEPENDS_ON]->(m) WHERE m.scope_id = $scope_id
    RETURN {source: CASE WHEN n:Revision THEN n.artifact_id + '@' + toString(n.revision) ELSE n.id END,
            target: CASE WHEN m:Revision THEN m.artifact_id + '@' + toString(m.revision) ELSE m.id END,
            type: type(e), props: properties(e)}
  }) AS edges
