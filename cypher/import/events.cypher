// Import: one batch of audit events (re-identified). Params: $rows: [{props}]
// A copied event keeps its history but not its place in the source store's feed: the `import` event
// (import/record.cypher) is this store's feed entry for the import.
UNWIND $rows AS row
CREATE (e:Event)
SET e = row.props
REMOVE e.position, e.kind, e.db_at, e.namespace
RETURN count(e) AS created
