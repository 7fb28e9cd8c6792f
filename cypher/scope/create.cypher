// Create a scope and, in the same transaction, its one agent kernel and one world kernel (each with
// its revision 1: a kernel is a revisioned document).
// Params: $id, $namespace, $cognitive_owner, $name, $now (datetime), $kernel (map of the kernels'
//         common properties), $agent_kernel_id, $world_kernel_id, $event_id, $actor
CREATE (s:Scope {id: $id, namespace: $namespace, cognitive_owner: $cognitive_owner, name: $name, created_at: $now})
CREATE (ak:Artifact:AgentKernel)
SET ak = $kernel, ak.id = $agent_kernel_id, ak.scope_id = $id, ak.family = 'agent_kernel'
CREATE (wk:Artifact:WorldKernel)
SET wk = $kernel, wk.id = $world_kernel_id, wk.scope_id = $id, wk.family = 'world_kernel'
CREATE (ak)-[:HAS_REVISION]->(:Revision {artifact_id: ak.id, scope_id: $id, revision: 1, content: '', at: $now,
                                         actor: $actor})
CREATE (wk)-[:HAS_REVISION]->(:Revision {artifact_id: wk.id, scope_id: $id, revision: 1, content: '', at: $now,
                                         actor: $actor})
CREATE (:Event:Unsequenced {namespace: $namespace, db_at: datetime.realtime(),
                id: $event_id, op: 'scope_create', at: $now, actor: $actor, scope_id: $id})
RETURN s {.*, agent_kernel_id: ak.id, world_kernel_id: wk.id} AS scope
