// Memories of one partition whose negation polarity / subject were never computed (e.g. written by raw
// Cypher): the digest classifies them in Python and writes the result back. Every memory saved through the
// service is classified, so first compare two index-only counts (memories; rows with a polarity) and scan
// the partition's memories only when they differ. Params: $namespace, $owner
MATCH (s:Scope {namespace: $namespace, cognitive_owner: $owner})
WITH s, COUNT { MATCH (m:Artifact {scope_id: s.id, family: 'memory'}) USING INDEX m:Artifact(scope_id, family, status)
                WHERE m.status IS NOT NULL }
      - COUNT { MATCH (m:Artifact {scope_id: s.id}) USING INDEX m:Artifact(scope_id, negating)
                WHERE m.negating IS NOT NULL } AS missing
WHERE missing > 0
MATCH (a:Artifact {scope_id: s.id})
WHERE a.family = 'memory' AND a.status = 'active' AND a.negating IS NULL
RETURN a.id AS id, a.content AS content, a.subject AS subject
