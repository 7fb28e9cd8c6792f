// kind: clauses
// Fragment DIGEST_RULES: the decisions of one digest phase over one partition (namespace, cognitive_owner),
// computed set-based. Included by digest/candidates.cypher (a dry run: the decisions, listed) and digest/run.cypher
// (the same decisions, written and applied batch by batch: fragment APPLY_DECISIONS).
//   phase 'archive': active memory / knowledge / skill artifacts
//   phase 'remove' : archived ones whose archive decision came from an earlier, finished pass
// Rules, first match wins (all matching rules are returned in `rules`):
//   broken_reference  a DEPENDS_ON path (direct or transitive) to a tombstone or an archived, removed or
//                     conflicted artifact; evidence = the path and the broken node
//   conflicted        superseded by a newer entry (its validity closed by $now: a record replaced from a later
//                     date on holds until then); evidence = the superseding entries
//   stale             role-tier memory, zero recalls, last access before $stale_before (30 days)
// Keep reason: healthy inbound support (SUPPORTS from an active, non-stale, non-conflicted artifact) turns
// the decision into action 'keep', citing the supporters. Kernels and working state are never candidates.
// Ends with one row: `decisions`, a list ordered by artifact id of
//   {a: artifact node, id, scope_id, family, status (as decided on), action, rule, rules, cites: [evidence nodes],
//    path: [ids from the artifact to the broken node], detail}
// Params: $namespace, $owner, $phase, $stale_before (datetime), $now, $pass_id
MATCH (s:Scope {namespace: $namespace, cognitive_owner: $owner})
WITH collect(s.id) AS scope_ids
// 1. every broken node of the partition, and (one backwards BFS from all of them) the nearest broken node
//    reachable from every other node: its evidence path (ids) and the broken node itself
CALL (scope_ids) {
  UNWIND scope_ids AS sid
  CALL (sid) {
    MATCH (t:Tombstone {scope_id: sid}) RETURN t AS b
    UNION ALL
    MATCH (a:Artifact {scope_id: sid}) WHERE a.status IN ['archived', 'removed'] OR a.conflicted = true RETURN a AS b
  }
  RETURN collect(b) AS sources
}
CALL (sources) {
  CALL apoc.path.expandConfig(sources, {relationshipFilter: '<DEPENDS_ON', uniqueness: 'NODE_GLOBAL', bfs: true,
                                        minLevel: 1}) YIELD path
  WITH last(nodes(path)) AS r, {path: [n IN reverse(nodes(path)) | n.id], broken: head(nodes(path))} AS evidence
  RETURN apoc.map.fromPairs(collect([r.id, evidence])) AS reached, collect(evidence {.*, a: r}) AS reached_rows
}
// 2. the other rows some rule can hold, found by index seeks, not by scanning the partition: conflicted rows,
//    role-tier memories (the stale rule) and, for remove, archived rows. These are BFS sources or unreached, so
//    their broken path (if any) starts at a direct DEPENDS_ON neighbour: broken itself, or reached by the BFS.
//    Everything is resolved here, in one row, so the big `reached` map never travels with each candidate
//    (the transaction memory pool would count it once per row).
CALL (scope_ids) {
  UNWIND scope_ids AS sid
  MATCH (a:Artifact {scope_id: sid, conflicted: true}) USING INDEX a:Artifact(scope_id, conflicted)
  RETURN collect(a) AS conflicted_nodes
}
CALL (scope_ids) {
  UNWIND scope_ids AS sid
  MATCH (a:Artifact {scope_id: sid, tier: 'role'}) USING INDEX a:Artifact(scope_id, tier)
  RETURN collect(a) AS role_nodes
}
CALL (scope_ids) {
  UNWIND CASE $phase WHEN 'remove' THEN scope_ids ELSE [] END AS sid
  UNWIND ['memory', 'knowledge', 'skill'] AS family
  MATCH (a:Artifact {scope_id: sid, family: family, status: 'archived'})
  USING INDEX a:Artifact(scope_id, family, status)
  RETURN collect(a) AS archived_nodes
}
WITH reached_rows
   + [a IN apoc.coll.toSet(conflicted_nodes + role_nodes + archived_nodes) WHERE reached[a.id] IS NULL |
        head([(a)-[:DEPENDS_ON]->(x) WHERE x:Tombstone OR x.status IN ['archived', 'removed'] OR x.conflicted = true
                | {a: a, path: [a.id, x.id], broken: x}]
           + [(a)-[:DEPENDS_ON]->(x) WHERE reached[x.id] IS NOT NULL
                | {a: a, path: [a.id] + reached[x.id].path, broken: reached[x.id].broken}]
           + [{a: a, path: null, broken: null}])] AS rows
UNWIND rows AS row
WITH row.a AS a, row.path AS broken_path, row.broken AS broken
WHERE a.family IN ['memory', 'knowledge', 'skill']
  AND a.status = CASE $phase WHEN 'archive' THEN 'active' ELSE 'archived' END
  AND ($phase = 'archive' OR EXISTS {
        MATCH (p:DigestPass {state: 'finished'})-[:DECIDED]->(:Decision {action: 'archive'})-[:ABOUT]->(a)
        WHERE p.id <> $pass_id })
// 3. the rules, each with its evidence
WITH a, broken_path, broken,
     [r IN [CASE WHEN broken_path IS NOT NULL THEN 'broken_reference' END,
            CASE WHEN coalesce(a.conflicted, false) AND (a.valid_until IS NULL OR a.valid_until <= $now)
                 THEN 'conflicted' END,
            CASE WHEN a.family = 'memory' AND a.tier = 'role' AND coalesce(a.recall_count, 0) = 0
                      AND coalesce(a.accessed_at, a.created_at) <= $stale_before THEN 'stale' END]
      WHERE r IS NOT NULL] AS rules
WHERE size(rules) > 0
WITH a, broken_path, broken, rules,
     [(sp)-[:SUPPORTS]->(a) WHERE sp.status = 'active' AND NOT coalesce(sp.stale, false)
                              AND NOT coalesce(sp.conflicted, false)
                              AND NOT (sp.family = 'memory' AND sp.tier = 'role' AND coalesce(sp.recall_count, 0) = 0
                                       AND coalesce(sp.accessed_at, sp.created_at) <= $stale_before)
        | sp] AS supporters
ORDER BY a.id
WITH collect({a: a, id: a.id, scope_id: a.scope_id, family: a.family, status: a.status,
              action: CASE WHEN size(supporters) > 0 THEN 'keep' ELSE $phase END,
              rule: CASE WHEN size(supporters) > 0 THEN 'healthy_inbound_support' ELSE rules[0] END,
              rules: rules,
              cites: CASE WHEN size(supporters) > 0 THEN supporters
                          WHEN rules[0] = 'broken_reference' THEN [broken]
                          WHEN rules[0] = 'conflicted' THEN [(x)-[:SUPERSEDES]->(a) | x]
                          ELSE [] END,
              path: coalesce(broken_path, []), detail: null}) AS decisions
