// Memories of one partition whose negation polarity / subject were never computed (e.g. written by raw
// Cypher): the digest classifies them in Python and writes the result back. Params: $namespace, $owner
MATCH (s:Scope {namespace: $namespace, cognitive_owner: $owner})
MATCH (a:Artifact {scope_id: s.id})
WHERE a.family = 'memory' AND a.status = 'active' AND a.negating IS NULL
RETURN a.id AS id, a.content AS content, a.subject AS subject
