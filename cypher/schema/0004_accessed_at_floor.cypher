// Data migration (INV-MEM-51): accessed_at is never 0, epoch, missing or earlier than created_at.
// Raised to created_at. Idempotent (a repaired row no longer matches), batched for big stores.
MATCH (a:Artifact)
WHERE a.accessed_at IS NULL
   OR NOT a.accessed_at IS :: ZONED DATETIME
   OR a.accessed_at <= datetime('1970-01-01T00:00:00Z')
   OR (a.created_at IS NOT NULL AND a.accessed_at < a.created_at)
CALL (a) {
  SET a.accessed_at = coalesce(a.created_at, datetime())
} IN TRANSACTIONS OF 10000 ROWS;
