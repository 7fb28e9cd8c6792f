// Every API key, oldest first, never its hash (revoked ones too; the caller filters). No params.
MATCH (k:ApiKey)
RETURN k {.*, key_hash: null} AS key
ORDER BY k.created_at, k.id
