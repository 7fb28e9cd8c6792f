// Every artifact of one partition that has a broken reference, with the evidence path: the artifact's
// ids along DEPENDS_ON to the nearest broken node (tombstone, archived, removed or conflicted artifact).
// One multi-source breadth-first search backwards from all broken nodes (apoc.path.expandConfig with
// NODE_GLOBAL uniqueness): linear in the partition's nodes and DEPENDS_ON edges, never a query per node.
// Broken nodes themselves are not listed (they are the sources). Params: $namespace, $owner
MATCH (s:Scope {namespace: $namespace, cognitive_owner: $owner})
CALL (s) {
  MATCH (t:Tombstone {scope_id: s.id}) RETURN t AS b
  UNION ALL
  MATCH (a:Artifact {scope_id: s.id}) WHERE a.status IN ['archived', 'removed'] OR a.conflicted = true RETURN a AS b
}
WITH collect(b) AS sources
CALL apoc.path.expandConfig(sources, {relationshipFilter: '<DEPENDS_ON', uniqueness: 'NODE_GLOBAL', bfs: true,
                                      minLevel: 1}) YIELD path
WITH last(nodes(path)) AS a, [n IN reverse(nodes(path)) | n.id] AS path
RETURN a.id AS id, a.scope_id AS scope_id, path, path[-1] AS broken_id
ORDER BY id
