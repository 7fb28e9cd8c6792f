// Derived view `support`: who supports this artifact (SUPPORTS edges), and whether that support is healthy
// (from an active, non-stale artifact). Read-only. Params: $scope_id, $id, $families
OPTIONAL MATCH (a:Artifact {id: $id}) WHERE a.scope_id = $scope_id AND a.family IN $families
OPTIONAL MATCH (t:Tombstone {id: $id}) WHERE t.scope_id = $scope_id AND t.family IN $families
WITH coalesce(a, t) AS a WHERE a IS NOT NULL
WITH a, [(s)-[:SUPPORTS]->(a) | s {.id, .family, status: coalesce(s.status, 'removed'), stale: coalesce(s.stale, false),
                                   healthy: s.status = 'active' AND NOT coalesce(s.stale, false)}] AS inbound
RETURN {
  inbound: inbound,
  healthy_inbound: size([s IN inbound WHERE s.healthy]),
  outbound: [(a)-[:SUPPORTS]->(t) | t {.id, .family, status: coalesce(t.status, 'removed')}]
} AS view
