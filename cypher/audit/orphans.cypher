// Audit (either scope guard): artifacts with no scope_id or naming a scope that does not exist (INV-SCOPE-3,
// `artifact_without_scope`; a scope node deleted under its artifacts leaves these too). Read-only.
// Params: $examples
MATCH (a:Artifact)
WHERE a.scope_id IS NULL OR NOT EXISTS { MATCH (:Scope {id: a.scope_id}) }
WITH count(a) AS found, collect({id: a.id, family: a.family, scope_id: a.scope_id})[..$examples] AS examples
RETURN 'artifact_without_scope' AS check, found, examples
