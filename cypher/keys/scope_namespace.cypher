// The namespace a scope belongs to (for the key's access check). A scope's namespace never changes, so
// the service caches the answer. Params: $id
MATCH (s:Scope {id: $id})
RETURN s.namespace AS namespace
