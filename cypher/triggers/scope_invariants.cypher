// Trigger: cognition_scope_invariants (APOC, phase 'before': runs inside the committing transaction,
// so a violation rolls the whole transaction back, whoever wrote it: the service, cypher-shell or Browser).
// Each check collects its offenders and calls apoc.util.validate once; the message starts with a stable code.
//   INV-SCOPE-1  cross_scope_reference   a relationship between two scoped nodes of different scopes
//   INV-SCOPE-2  scope_id_immutable      an artifact's scope_id changed or removed after creation
//   INV-SCOPE-3  kernel_cardinality      a scope without exactly one agent kernel and one world kernel
//                artifact_without_scope  an artifact created without an existing scope
//                scope_not_empty         a scope node deleted while artifacts still name it
CALL {
  UNWIND $createdRelationships AS r
  WITH r, startNode(r) AS a, endNode(r) AS b
  WHERE a.scope_id IS NOT NULL AND b.scope_id IS NOT NULL AND a.scope_id <> b.scope_id
  RETURN collect(type(r) + ' ' + coalesce(a.id, '?') + ' -> ' + coalesce(b.id, '?')) AS cross
}
CALL apoc.util.validate(size(cross) > 0, 'cross_scope_reference: %s', [cross])
CALL {
  UNWIND coalesce($assignedNodeProperties['scope_id'], []) AS p
  WITH p WHERE p.old IS NOT NULL AND p.old <> p.new
  RETURN collect(coalesce(p.node.id, '?')) AS moved
}
CALL apoc.util.validate(size(moved) > 0, 'scope_id_immutable: %s', [moved])
// A scope_id removed without any node being deleted is a live node leaving its scope.
CALL apoc.util.validate(size(coalesce($removedNodeProperties['scope_id'], [])) > 0 AND size($deletedNodes) = 0,
  'scope_id_immutable: scope_id removed', [])
CALL {
  UNWIND $createdNodes AS n
  WITH n WHERE n:Artifact AND (n.scope_id IS NULL OR NOT EXISTS { MATCH (s:Scope {id: n.scope_id}) })
  RETURN collect(coalesce(n.id, '?')) AS orphans
}
CALL apoc.util.validate(size(orphans) > 0, 'artifact_without_scope: %s', [orphans])
CALL {
  WITH coalesce($removedLabels['AgentKernel'], []) + coalesce($removedLabels['WorldKernel'], []) AS unkerneled
  WITH [n IN $createdNodes WHERE n:Scope | n.id]
     + [n IN $createdNodes WHERE n:AgentKernel OR n:WorldKernel | n.scope_id]
     + [n IN coalesce($assignedLabels['AgentKernel'], []) + coalesce($assignedLabels['WorldKernel'], []) | n.scope_id]
     + [n IN unkerneled WHERE NOT n IN $deletedNodes | n.scope_id]
     + CASE WHEN size(unkerneled) > 0
         THEN [p IN coalesce($removedNodeProperties['scope_id'], []) | p.old] ELSE [] END AS touched
  UNWIND touched AS sid
  WITH DISTINCT sid WHERE sid IS NOT NULL AND EXISTS { MATCH (:Scope {id: sid}) }
  WITH sid, COUNT { MATCH (k:AgentKernel {scope_id: sid}) } AS agent, COUNT { MATCH (k:WorldKernel {scope_id: sid}) } AS world
  WHERE agent <> 1 OR world <> 1
  RETURN collect(sid + ' (agent kernels: ' + toString(agent) + ', world kernels: ' + toString(world) + ')') AS bad
}
CALL apoc.util.validate(size(bad) > 0, 'kernel_cardinality: %s', [bad])
CALL {
  WITH CASE WHEN size(coalesce($removedLabels['Scope'], [])) > 0
         THEN [p IN coalesce($removedNodeProperties['id'], []) | p.old] ELSE [] END AS gone
  UNWIND gone AS sid
  WITH sid WHERE EXISTS { MATCH (a:Artifact {scope_id: sid}) }
  RETURN collect(sid) AS nonempty
}
CALL apoc.util.validate(size(nonempty) > 0, 'scope_not_empty: %s', [nonempty])
RETURN 1 AS ok
