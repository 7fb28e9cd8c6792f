// The broken nodes of one partition (namespace, cognitive_owner): tombstones, and archived, removed or
// conflicted artifacts. A DEPENDS_ON path that ends at one of these is a broken reference.
// Params: $namespace, $owner
MATCH (s:Scope {namespace: $namespace, cognitive_owner: $owner})
CALL (s) {
  MATCH (t:Tombstone {scope_id: s.id}) RETURN t AS b
  UNION ALL
  MATCH (a:Artifact {scope_id: s.id}) WHERE a.status IN ['archived', 'removed'] OR a.conflicted = true RETURN a AS b
}
RETURN b.id AS id, b.scope_id AS scope_id,
       CASE WHEN b:Tombstone THEN 'tombstone' WHEN b.conflicted = true THEN 'conflicted' ELSE b.status END AS reason
