// kind: clauses
// ScopeRows(a): what the in-process scope index (service/search/scope_index.py) keeps of the searchable rows `a`, oldest
// first: their text, family and kind, their vector when it is from $model at the row's current revision, their
// created_at / updated_at as integer nanoseconds since the epoch (the copy's order and each row's write stamp,
// which an extension of the copy compares), their occurred_at likewise and `said` (the intervals their text names,
// resolved when they were saved: service/search/temporal; null where not stored, the copy then resolves it). Returned as columns, $chunk rows to a record (graph/recall.py turns
// them back into rows): the driver spent ~70 µs a record, 7–9 s for a 100,000-row scope read a row to a record,
// against ~1.2 s for the same values in columns. A list comprehension keeps nulls (collect() would drop them).
// Shared by search/scope_corpus.cypher (the whole scope) and search/scope_delta.cypher (its recent writes).
WITH a ORDER BY a.created_at, a.id
WITH collect(a) AS rows
UNWIND range(0, size(rows) - 1, $chunk) AS start
WITH rows[start..start + $chunk] AS part
RETURN [a IN part | a.id] AS id, [a IN part | a.family] AS family, [a IN part | a.kind] AS kind,
       [a IN part | a.title] AS title, [a IN part | a.content] AS content,
       [a IN part | CASE WHEN $model IS NOT NULL AND a.embedding_model = $model AND a.embedding_revision = a.revision
                         THEN a.embedding END] AS embedding,
       [a IN part | a.created_at.epochSeconds * 1000000000 + a.created_at.nanosecond] AS created,
       [a IN part | a.updated_at.epochSeconds * 1000000000 + a.updated_at.nanosecond] AS updated,
       [a IN part | a.occurred_at.epochSeconds * 1000000000 + a.occurred_at.nanosecond] AS occurred,
       [a IN part | a.said] AS said
