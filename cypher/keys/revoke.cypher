// Revoke a key (idempotent: a revoked key keeps its first revocation time). The node stays, so the audit
// trail's actor ids keep resolving to a role and namespaces. Params: $id, $now (datetime), $revoked_by
// (`properties(k)` is read as a map so that a store where no key was ever revoked plans this without a
// "property does not exist" warning.)
// Concurrency rule (lock by write, then read; see artifact/update.cypher): of two concurrent revokes the second
// reads the first's revocation after the lock and keeps it.
// guards: k.revoked_at, k.revoked_by
MATCH (k:ApiKey {id: $id})
SET k._lock = true
WITH k, apoc.any.properties(k) AS was
REMOVE k._lock
WITH k, was
SET k.revoked_at = coalesce(was.revoked_at, $now), k.revoked_by = coalesce(was.revoked_by, $revoked_by)
RETURN k {.*, key_hash: null} AS key
