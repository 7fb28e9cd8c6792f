// kind: clauses
// Fragment GC_RULES: the GC decisions for one partition (namespace, cognitive_owner), memories only, set-based.
// Included by gc/candidates.cypher (a dry run: listed) and gc/run.cypher (written and applied: APPLY_DECISIONS).
// Exempt kinds ($exempt_kinds: constraint, instruction, environment) are never candidates, whoever asks.
//   phase 'archive':
//     ttl_expired        active memories whose tier has a TTL ($ttl: tier -> seconds) and whose last access
//                        (or creation) is older than it — oldest first, at most $ttl_batch per run
//     capacity_eviction  when the partition holds more than $max_entries active memories (after the TTL
//                        batch), the excess with the lowest RetentionScore (fragment RETENTION_SCORE, $w, $now)
//   phase 'remove': memories archived by an earlier, finished GC pass and still archived
// Params: $namespace, $owner, $phase, $now, $ttl, $ttl_batch, $max_entries (null = no cap), $exempt_kinds,
//         $w, $pass_id
// Ends with one row: `decisions`, a list in the shape DIGEST_RULES documents (no cites, no path).
MATCH (s:Scope {namespace: $namespace, cognitive_owner: $owner})
WITH collect(s.id) AS scope_ids
OPTIONAL CALL (scope_ids) {
  WITH scope_ids WHERE $phase = 'archive'
  UNWIND scope_ids AS sid
  MATCH (m:Artifact {scope_id: sid})
  WHERE m.family = 'memory' AND m.status = 'active' AND NOT m.kind IN $exempt_kinds AND $ttl[m.tier] IS NOT NULL
    AND coalesce(m.accessed_at, m.created_at) <= $now - duration({seconds: $ttl[m.tier]})
  WITH m ORDER BY coalesce(m.accessed_at, m.created_at), m.id LIMIT $ttl_batch
  RETURN collect(m) AS expired
}
WITH scope_ids, coalesce(expired, []) AS expired
WITH scope_ids, expired, apoc.map.fromLists([m IN expired | m.id], [m IN expired | true]) AS expiring
OPTIONAL CALL (scope_ids, expired, expiring) {
  WITH scope_ids, expired, expiring WHERE $phase = 'archive' AND $max_entries IS NOT NULL
  UNWIND scope_ids AS sid
  MATCH (m:Artifact {scope_id: sid}) WHERE m.family = 'memory' AND m.status = 'active'
  WITH expired, expiring, collect(m) AS active
  WITH expiring, active, size(active) - size(expired) - $max_entries AS excess
  WHERE excess > 0
  UNWIND active AS m
  WITH m, excess, expiring WHERE NOT m.kind IN $exempt_kinds AND expiring[m.id] IS NULL
  WITH m, excess, {{RETENTION_SCORE}} AS score
  ORDER BY score, m.id
  WITH excess, collect({m: m, score: score}) AS ranked
  RETURN ranked[0..excess] AS evicted
}
OPTIONAL CALL (scope_ids) {
  WITH scope_ids WHERE $phase = 'remove'
  UNWIND scope_ids AS sid
  MATCH (m:Artifact {scope_id: sid}) WHERE m.family = 'memory' AND m.status = 'archived'
  MATCH (p:DigestPass {kind: 'gc', state: 'finished'})-[:DECIDED]->(d:Decision {action: 'archive'})-[:ABOUT]->(m)
  WHERE p.id <> $pass_id
  WITH m, d ORDER BY d.at DESC
  WITH m, collect(d)[0] AS d
  RETURN collect({m: m, rule: d.rule}) AS removable
}
WITH [x IN expired | {m: x, rule: 'ttl_expired', detail: null}]
   + [x IN coalesce(evicted, []) | {m: x.m, rule: 'capacity_eviction',
                                    detail: 'retention_score=' + toString(round(x.score, 4))}]
   + [x IN coalesce(removable, []) | {m: x.m, rule: x.rule, detail: null}] AS decided
WITH [x IN decided | {a: x.m, id: x.m.id, scope_id: x.m.scope_id, family: x.m.family, status: x.m.status,
                      action: $phase, rule: x.rule, rules: [x.rule], cites: [], path: [], detail: x.detail}] AS decisions
