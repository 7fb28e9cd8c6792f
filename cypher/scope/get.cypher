// A scope by id, with the ids of its two kernels. Params: $id
MATCH (s:Scope {id: $id})
WHERE s.deleting IS NULL
RETURN s {.*,
  agent_kernel_id: COLLECT { MATCH (k:AgentKernel {scope_id: s.id}) RETURN k.id }[0],
  world_kernel_id: COLLECT { MATCH (k:WorldKernel {scope_id: s.id}) RETURN k.id }[0]
} AS scope
