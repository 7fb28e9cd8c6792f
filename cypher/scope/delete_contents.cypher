// Second step of a scope delete: everything the scope owns except its kernels, in batches, so a scope of
// 100k artifacts never needs one giant transaction. Runs as an auto-commit query (CALL … IN TRANSACTIONS).
// Params: $id, $batch
CALL {
  MATCH (a:Artifact {scope_id: $id}) WHERE NOT (a:AgentKernel OR a:WorldKernel) RETURN a AS n
  UNION ALL
  MATCH (t:Tombstone {scope_id: $id}) RETURN t AS n
  UNION ALL
  MATCH (r:Revision {scope_id: $id}) RETURN r AS n
  UNION ALL
  MATCH (d:Decision {scope_id: $id}) RETURN d AS n
}
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF $batch ROWS
RETURN count(*) AS deleted
