// Create an API key. Only the SHA-256 of the secret is stored, never the secret.
// Params: $id, $key_hash, $role ('agent' | 'operator' | 'auditor'), $namespaces (list; '*' = every
//         namespace), $now (datetime), $created_by (the creating key's id, or 'cli' / 'bootstrap')
CREATE (k:ApiKey {id: $id, key_hash: $key_hash, role: $role, namespaces: $namespaces, created_at: $now,
                  created_by: $created_by})
RETURN k {.*, key_hash: null} AS key
