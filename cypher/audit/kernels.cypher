// Audit (either scope guard): scopes without exactly one agent kernel and one world kernel (INV-SCOPE-3,
// `kernel_cardinality`; the constraints of 0018 already refuse a second one). One index seek per scope per kind;
// read-only. Params: $examples
MATCH (s:Scope)
WITH s, COUNT { MATCH (k:AgentKernel {scope_id: s.id}) } AS agent,
     COUNT { MATCH (k:WorldKernel {scope_id: s.id}) } AS world
WHERE agent <> 1 OR world <> 1
WITH count(s) AS found, collect({scope_id: s.id, agent_kernels: agent, world_kernels: world})[..$examples] AS examples
RETURN 'kernel_cardinality' AS check, found, examples
