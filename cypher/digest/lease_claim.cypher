// Lock a partition's lease (MERGE on a uniquely constrained id serialises concurrent claims) and report
// who holds it. The caller decides in the same transaction (digest/lease_take.cypher).
// Params: $lease_id
MERGE (l:PartitionLease {id: $lease_id})
WITH l
OPTIONAL MATCH (p:DigestPass {id: l.pass_id})
RETURN l.pass_id AS holder, l.lease_until AS lease_until, p {.*} AS pass
