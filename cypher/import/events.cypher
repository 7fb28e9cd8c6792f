// Import: one batch of audit events (re-identified). Params: $rows: [{props}]
UNWIND $rows AS row
CREATE (e:Event)
SET e = row.props
RETURN count(e) AS created
