// Finish a pass and release the partition's lease. Params: $lease_id, $pass_id, $now, $counts (map)
MATCH (p:DigestPass {id: $pass_id})
SET p.state = 'finished', p.finished_at = $now, p += $counts
WITH p
OPTIONAL MATCH (l:PartitionLease {id: $lease_id}) WHERE l.pass_id = $pass_id
REMOVE l.pass_id, l.lease_until
RETURN p {.*} AS pass
