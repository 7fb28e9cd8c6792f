// kind: clauses
// ScopeRow(a): what the in-process scope index (service/scope_index.py) keeps of one searchable row, oldest
// first: its text, family and kind, its vector when it is from $model at the row's current revision, and its
// created_at / updated_at as integer nanoseconds since the epoch (the copy's order and each row's write stamp,
// which an extension of the copy compares; integers, as a driver-hydrated DateTime costs ~60 µs a value).
// Shared by search/scope_corpus.cypher (the whole scope) and search/scope_delta.cypher (its recent writes).
RETURN a.id AS id, a.family AS family, a.kind AS kind, a.title AS title, a.content AS content,
       CASE WHEN $model IS NOT NULL AND a.embedding_model = $model AND a.embedding_revision = a.revision
            THEN a.embedding END AS embedding,
       a.created_at.epochSeconds * 1000000000 + a.created_at.nanosecond AS created,
       a.updated_at.epochSeconds * 1000000000 + a.updated_at.nanosecond AS updated
ORDER BY a.created_at, a.id
