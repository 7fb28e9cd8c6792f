// Export view `decisions` of one scope (GET /v1/scopes/{id}/graph?view=decisions, `cognition export graph`):
// every digest / GC decision about the scope's artifacts — (:DigestPass)-[:DECIDED]->(:Decision)-[:ABOUT]->
// (artifact or tombstone) and (:Decision)-[:CITES]->(evidence: the broken target, the superseding entry, the
// supporters, the tombstone). Read-only. A pass works on a whole partition, so a pass node carries only its own
// bookkeeping (id, kind, phase, state, times, partition), never what it decided in other scopes.
// Only decisions and artifacts whose scope_id is $scope_id, and only edges between nodes of the export.
// Answers one row: `found` (the scope exists), `node_count`, and — only while node_count <= $max_nodes —
// `nodes` [{key, labels, props}] and `edges` [{source, target, type, props}] (otherwise both empty), each as
// one JSON string (temporal values as ISO 8601): the driver decodes thousands of maps with DateTimes far slower.
// A node's key is its id. Vectors never leave; the text fields (content, when_to_use, steps) only when $content.
// Params: $scope_id, $max_nodes, $content (bool)
OPTIONAL MATCH (s:Scope {id: $scope_id})
WITH s, COLLECT { MATCH (d:Decision) WHERE d.scope_id = $scope_id RETURN d } AS decisions
WITH s, decisions,
     COLLECT { UNWIND decisions AS d MATCH (p:DigestPass)-[:DECIDED]->(d) RETURN DISTINCT p } AS passes,
     COLLECT { UNWIND decisions AS d MATCH (d)-[:ABOUT|CITES]->(x) WHERE x.scope_id = $scope_id
               AND (x:Artifact OR x:Tombstone) RETURN DISTINCT x } AS things
WITH s, passes, decisions, things, size(passes) + size(decisions) + size(things) AS node_count
WITH s, node_count, CASE WHEN node_count <= $max_nodes THEN passes ELSE [] END AS passes,
     CASE WHEN node_count <= $max_nodes THEN decisions + things ELSE [] END AS others
RETURN s IS NOT NULL AS found, node_count,
  apoc.convert.toJson(
  [p IN passes | {key: p.id, labels: labels(p),
                  props: p {.id, .kind, .phase, .state, .started_at, .finished_at, .namespace, .cognitive_owner,
                            .actor, .dry_run}}] +
  [n IN others | {key: n.id, labels: labels(n),
                  props: n {.*, embedding: null, embedding_model: null, embedding_revision: null,
                            content: CASE WHEN $content THEN n.content END,
                            when_to_use: CASE WHEN $content THEN n.when_to_use END,
                            steps: CASE WHEN $content THEN n.steps END}}]) AS nodes,
  apoc.convert.toJson(COLLECT {
    UNWIND others AS d
    MATCH (p:DigestPass)-[e:DECIDED]->(d)
    RETURN {source: p.id, target: d.id, type: type(e), props: properties(e)} AS edge
    UNION ALL
    UNWIND others AS d
    MATCH (d:Decision)-[e:ABOUT|CITES]->(x) WHERE x.scope_id = $scope_id AND (x:Artifact OR x:Tombstone)
    RETURN {source: d.id, target: x.id, type: type(e), props: properties(e)} AS edge
  }) AS edges
