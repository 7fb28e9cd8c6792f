// One API key by id, without its hash. Params: $id
MATCH (k:ApiKey {id: $id})
RETURN k {.id, .role, .namespaces, .created_at, .revoked_at, .created_by} AS key
