// Neo4j Browser (table): the records the learned injection detector holds in quarantine in a namespace, and why:
// the layer that held each (`encoder`: asked where the n-gram model is unsure) and its score, highest first, with the
// start of the text. They stay invisible to list, search, recall and context until an operator approves or rejects them
// (POST …/memories/{id}/approve or /reject).
// :param namespace => '…'
MATCH (s:Scope {namespace: $namespace})
MATCH (a:Artifact {scope_id: s.id, status: 'pending'})
WHERE a.hold_reason IS NOT NULL
RETURN a.id AS id, s.name AS scope, a.family AS family, a.hold_reason AS reason, a.hold_layer AS layer,
       a.hold_score AS score, a.source AS source, left(a.content, 160) AS text, a.created_at AS saved
ORDER BY score DESC, saved DESC LIMIT 100
