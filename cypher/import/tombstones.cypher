// Import: one batch of tombstones. Params: $rows: [{props: {...}}]
UNWIND $rows AS row
CREATE (t:Tombstone)
SET t = row.props
RETURN count(t) AS created
