// Claim an Idempotency-Key for a save (unique per scope and key). The MERGE on a uniquely constrained
// property takes a lock, so two concurrent retries serialise: the second sees the first's claim.
// Params: $key_id, $hash, $ids, $now
MERGE (k:IdempotencyKey {id: $key_id})
ON CREATE SET k.request_hash = $hash, k.artifact_ids = $ids, k.at = $now, k.fresh = true
WITH k, coalesce(k.fresh, false) AS fresh
REMOVE k.fresh
RETURN fresh, k.request_hash AS hash, k.artifact_ids AS ids
