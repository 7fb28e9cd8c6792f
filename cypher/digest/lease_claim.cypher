// Lock a partition's lease and report who holds it. The caller decides in the same transaction
// (digest/lease_take.cypher). Params: $lease_id
// Concurrency rule (lock by write, then read; see artifact/update.cypher): MERGE on the uniquely constrained id
// makes one lease node even when two claims create it at once; `SET l._lock` then holds its write lock to
// commit and the holder is read after it (apoc.any.properties), so of two concurrent claims on a free lease one
// takes it and the other sees it taken (409 digest_in_progress) — never two passes on one partition.
// guards: l.pass_id, l.lease_until
MERGE (l:PartitionLease {id: $lease_id})
SET l._lock = true
WITH l, apoc.any.properties(l) AS locked
REMOVE l._lock
WITH l, locked
OPTIONAL MATCH (p:DigestPass {id: locked.pass_id})
RETURN locked.pass_id AS holder, locked.lease_until AS lease_until, p {.*} AS pass
