// Neo4j Browser (table): what GC archived or removed in a partition, newest first — TTL reclaims and capacity
// evictions, each with the memory's kind and tier and, for an eviction, the RetentionScore it had when the pass
// ranked it (the lowest scores go first; digest/retention.py documents the formula).
// :param namespace => 'the namespace'   :param owner => 'the cognitive owner'
MATCH (p:DigestPass {namespace: $namespace, cognitive_owner: $owner})-[:DECIDED]->(d:Decision)-[:ABOUT]->(m)
WHERE p.kind = 'gc'
RETURN d.at AS at, p.id AS pass_id, d.action AS action, d.rule AS rule, m.id AS memory, m.kind AS kind,
       m.tier AS tier, coalesce(m.status, 'removed') AS status, m.recall_count AS recalls,
       m.accessed_at AS last_access,
       CASE WHEN d.detail STARTS WITH 'retention_score=' THEN toFloat(substring(d.detail, 16)) END
         AS retention_score
ORDER BY at DESC, retention_score, memory
LIMIT 200
