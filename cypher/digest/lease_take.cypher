// Take the partition's lease for a pass, creating the pass unless it is being resumed.
// Params: $lease_id, $pass (map of the pass's properties, incl. id), $lease_until, $resume (bool)
MATCH (l:PartitionLease {id: $lease_id})
SET l.pass_id = $pass.id, l.lease_until = $lease_until
MERGE (p:DigestPass {id: $pass.id})
ON CREATE SET p = $pass
SET p.lease_until = $lease_until, p.resumed = $resume OR coalesce(p.resumed, false)
RETURN p {.*} AS pass
