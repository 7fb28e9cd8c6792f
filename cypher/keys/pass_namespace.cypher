// The namespace a digest / GC pass worked on (for the key's access check). Fixed when the pass is created,
// so the service caches the answer. Params: $id
MATCH (p:DigestPass {id: $id})
RETURN p.namespace AS namespace
