// Export view `refgraph` of one scope (GET /v1/scopes/{id}/graph?view=refgraph, `cognition export graph`):
// every artifact and tombstone of the scope and the reference edges among them — SUPPORTS, DEPENDS_ON,
// DERIVED_FROM, SUPERSEDES, RELATES_TO {type}. What the digest reasons over: a DEPENDS_ON path that ends at a
// tombstone or an archived / conflicted artifact is a broken reference. Read-only.
// Only nodes whose scope_id is $scope_id, and only edges between two of them.
// Answers one row: `found` (the scope exists), `node_count`, and — only while node_count <= $max_nodes —
// `nodes` [{key, labels, props}] and `edges` [{source, target, type, props}] (otherwise both empty), each as
// one JSON string (temporal values as ISO 8601): the driver decodes thousands of maps with DateTimes far slower.
// A node's key is its id. Vectors never leave; the text fields (content, when_to_use, steps) only when $content.
// Params: $scope_id, $max_nodes, $content (bool)
OPTIONAL MATCH (s:Scope {id: $scope_id})
WITH s, COLLECT { MATCH (a:Artifact) WHERE a.scope_id = $scope_id RETURN a } +
        COLLECT { MATCH (t:Tombstone) WHERE t.scope_id = $scope_id RETURN t } AS found_nodes
WITH s, size(found_nodes) AS node_count, found_nodes
WITH s, node_count, CASE WHEN node_count <= $max_nodes THEN found_nodes ELSE [] END AS found_nodes
RETURN s IS NOT NULL AS found, node_count,
  apoc.convert.toJson(
  [n IN found_nodes | {key: n.id, labels: labels(n),
               props: n {.*, embedding: null, embedding_model: null, embedding_revision: null,
                         content: CASE WHEN $content THEN n.content END,
                         when_to_use: CASE WHEN $content THEN n.when_to_use END,
                         steps: CASE WHEN $content THEN n.steps END}}]) AS nodes,
  apoc.convert.toJson(COLLECT {
    UNWIND found_nodes AS n
    MATCH (n)-[e:SUPPORTS|DEPENDS_ON|DERIVED_FROM|SUPERSEDES|RELATES_TO]->(m)
    WHERE m.scope_id = $scope_id AND (m:Artifact OR m:Tombstone)
    RETURN {source: n.id, target: m.id, type: type(e), props: properties(e)}
  }) AS edges
