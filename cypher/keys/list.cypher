// Every API key, oldest first, without hashes. Params: $include_revoked (boolean)
MATCH (k:ApiKey)
WHERE $include_revoked OR k.revoked_at IS NULL
RETURN k {.id, .role, .namespaces, .created_at, .revoked_at, .created_by} AS key
ORDER BY k.created_at, k.id
