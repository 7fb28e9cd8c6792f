// One API key by id, without its hash. Params: $id
MATCH (k:ApiKey {id: $id})
RETURN k {.*, key_hash: null} AS key
