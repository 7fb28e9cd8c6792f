// The key whose secret hashes to $key_hash (revoked or not), without its hash. Params: $key_hash
MATCH (k:ApiKey {key_hash: $key_hash})
RETURN k {.id, .role, .namespaces, .created_at, .revoked_at} AS key
