// Audit (either scope guard): relationships between two scoped nodes of different scopes (INV-SCOPE-1,
// `cross_scope_reference`). One pass over every relationship; read-only. Params: $examples (how many to list)
MATCH (a)-[r]->(b)
WHERE a.scope_id IS NOT NULL AND b.scope_id IS NOT NULL AND a.scope_id <> b.scope_id
WITH count(r) AS found, collect({type: type(r), from_id: a.id, from_scope: a.scope_id, to_id: b.id,
                                  to_scope: b.scope_id})[..$examples] AS examples
RETURN 'cross_scope_reference' AS check, found, examples
