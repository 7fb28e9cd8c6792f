// Revoke a key (idempotent: a revoked key keeps its first revocation time). The node stays, so the audit
// trail's actor ids keep resolving to a role and namespaces. Params: $id, $now (datetime), $revoked_by
MATCH (k:ApiKey {id: $id})
SET k.revoked_at = coalesce(k.revoked_at, $now), k.revoked_by = coalesce(k.revoked_by, $revoked_by)
RETURN k {.id, .role, .namespaces, .created_at, .revoked_at, .created_by} AS key
