// Neo4j Browser: the latest passes of a partition with their counts.
// :param namespace => '…'   :param owner => '…'
MATCH (p:DigestPass {namespace: $namespace, cognitive_owner: $owner})
RETURN p.id AS id, p.kind AS kind, p.phase AS phase, p.state AS state, p.started_at AS started,
       p.finished_at AS finished, p.n_archive AS archived, p.n_remove AS removed, p.n_keep AS kept
ORDER BY p.started_at DESC LIMIT 25
