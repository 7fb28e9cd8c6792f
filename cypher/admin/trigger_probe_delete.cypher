// Clean up the probe scope when it was accepted because the trigger was not live yet. Params: $id
MATCH (s:Scope {id: $id}) DELETE s
