// A scope's write policy (JSON text; absent means {"default": "auto"}). Params: $id
MATCH (s:Scope {id: $id}) WHERE s.deleting IS NULL
RETURN s.write_policy AS policy
