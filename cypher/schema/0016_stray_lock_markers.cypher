// Data migration: no node keeps a `_lock` marker. A query that locks by writing `_lock` removes it in the same
// statement; edge creation (artifact/edge_create, artifact/relates_create) removed it only after re-checking both
// ends, so an edge that waited for the lock of a row a delete was turning into a tombstone left the marker committed
// on the live end and on the tombstone, and every later read of that record answered 500 (a field the record does
// not have). Idempotent (a repaired node no longer matches), batched for big stores.
MATCH (n:Artifact) WHERE n._lock IS NOT NULL
CALL (n) {
  REMOVE n._lock
} IN TRANSACTIONS OF 10000 ROWS;
MATCH (n:Tombstone) WHERE n._lock IS NOT NULL
CALL (n) {
  REMOVE n._lock
} IN TRANSACTIONS OF 10000 ROWS;
