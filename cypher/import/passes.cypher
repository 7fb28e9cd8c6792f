// Import: one batch of digest / GC passes (re-identified, in the target partition). Params: $rows: [{props}]
UNWIND $rows AS row
CREATE (p:DigestPass)
SET p = row.props
RETURN count(p) AS created
