// Install a configured bootstrap key (COGNITION_BOOTSTRAP_KEY) as an operator key holding every
// namespace, unless a key with that hash already exists (a revoked one stays revoked). Also sets the
// bootstrap marker so that no random first key is generated. Idempotent.
// Params: $id, $key_hash, $now (datetime)
MERGE (b:ApiKeyBootstrap {id: 'first_operator_key'})
ON CREATE SET b.at = $now, b.key_id = $id
MERGE (k:ApiKey {key_hash: $key_hash})
ON CREATE SET k.id = $id, k.role = 'operator', k.namespaces = ['*'], k.created_at = $now,
              k.created_by = 'bootstrap'
RETURN k {.*, key_hash: null} AS key
