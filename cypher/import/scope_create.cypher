// Import, first statement of the import transaction: the new scope node (its kernels arrive as artifacts in
// the same transaction, so the kernel-cardinality trigger sees both at commit).
// Params: $props (map: id, namespace, cognitive_owner, name, created_at, write_policy?, ...)
CREATE (s:Scope)
SET s = $props
RETURN s.id AS id
