// Write back computed negation polarity and (derived) subject. Params: $rows: [{id, negating, subject}]
UNWIND $rows AS row
MATCH (a:Artifact {id: row.id})
SET a.negating = row.negating, a.subject = coalesce(a.subject, row.subject)
RETURN count(a) AS classified
