// The key whose secret hashes to $key_hash (revoked or not), without its hash (`.*`: a store where no key
// was ever revoked has no `revoked_at` property key to name). Params: $key_hash
MATCH (k:ApiKey {key_hash: $key_hash})
RETURN k {.*, key_hash: null} AS key
