// Inbound support of one artifact: SUPPORTS edges into it, each marked healthy when it comes from an
// active, non-stale, non-conflicted artifact. Params: $id
MATCH (a:Artifact {id: $id})
MATCH p = (s)-[:SUPPORTS]->(a)
RETURN s.id AS supporter, coalesce(s.status, 'removed') AS status, coalesce(s.stale, false) AS stale,
       s.status = 'active' AND NOT coalesce(s.stale, false) AND NOT coalesce(s.conflicted, false) AS healthy,
       [n IN nodes(p) | n.id] AS path
