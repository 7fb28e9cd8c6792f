// Extend the lease while a pass works through its batches. Params: $lease_id, $pass_id, $lease_until
MATCH (l:PartitionLease {id: $lease_id}) WHERE l.pass_id = $pass_id
SET l.lease_until = $lease_until
WITH l
MATCH (p:DigestPass {id: $pass_id})
SET p.lease_until = $lease_until
RETURN count(p) AS renewed
