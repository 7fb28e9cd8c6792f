// Create the first operator key (holding every namespace) when the store has never had one. The MERGE on
// the uniquely constrained marker takes a lock, so of two service processes starting at once only one
// creates a key; a store that already has keys (e.g. made with `cognition keys create`) gets none.
// Returns no row when nothing was created. Params: $id, $key_hash, $now (datetime)
MERGE (b:ApiKeyBootstrap {id: 'first_operator_key'})
ON CREATE SET b.at = $now, b.key_id = $id
WITH b
WHERE b.key_id = $id AND NOT EXISTS { MATCH (:ApiKey) }
CREATE (k:ApiKey {id: $id, key_hash: $key_hash, role: 'operator', namespaces: ['*'], created_at: $now,
                  created_by: 'bootstrap'})
RETURN k {.*, key_hash: null} AS key
