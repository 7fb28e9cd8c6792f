// Derived view `cleanup`: the record's lifecycle state and every cleanup decision about it — which pass,
// which rule, what evidence it cites (a broken target, a superseding entry, a tombstone). Read-only.
// Params: $scope_id, $id, $families
OPTIONAL MATCH (a:Artifact {id: $id}) WHERE a.scope_id = $scope_id AND a.family IN $families
OPTIONAL MATCH (t:Tombstone {id: $id}) WHERE t.scope_id = $scope_id AND t.family IN $families
WITH coalesce(a, t) AS a WHERE a IS NOT NULL
RETURN {
  status: coalesce(a.status, 'removed'),
  removed_at: a.removed_at,
  removed_by: a.removed_by,
  decisions: COLLECT {
    MATCH (p:DigestPass)-[:DECIDED]->(d:Decision)-[:ABOUT]->(a)
    RETURN d {.action, .rule, .at, .path, .detail, pass_id: p.id, pass_kind: p.kind, pass_phase: p.phase,
              cites: [(d)-[:CITES]->(e) | {id: e.id, family: e.family, status: coalesce(e.status, 'removed'),
                                           tombstone: e:Tombstone}]}
    ORDER BY d.at
  }
} AS view
