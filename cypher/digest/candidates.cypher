// The decisions of one digest phase over one partition (namespace, cognitive_owner), computed set-based in
// one query and written by digest/apply_decisions.cypher (or returned unapplied by a dry run).
//   phase 'archive': active memory / knowledge / skill artifacts
//   phase 'remove' : archived ones whose archive decision came from an earlier, finished pass
// Rules, first match wins (all matching rules are returned in `rules`):
//   broken_reference  a DEPENDS_ON path (direct or transitive) to a tombstone or an archived, removed or
//                     conflicted artifact; evidence = the path and the broken node
//   conflicted        superseded by a newer entry that negates it; evidence = the superseding entries
//   stale             role-tier memory, zero recalls, last access before $stale_before (30 days)
// Keep reason: healthy inbound support (SUPPORTS from an active, non-stale, non-conflicted artifact) turns
// the decision into action 'keep', citing the supporters. Kernels and working state are never candidates.
// Params: $namespace, $owner, $phase, $stale_before (datetime), $pass_id
MATCH (s:Scope {namespace: $namespace, cognitive_owner: $owner})
WITH collect(s.id) AS scope_ids
// 1. every broken node of the partition, and (one backwards BFS from all of them) the nearest broken node
//    reachable from every other node, as id -> evidence path
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
  WITH last(nodes(path)) AS r, [n IN reverse(nodes(path)) | n.id] AS evidence
  RETURN apoc.map.fromPairs(collect([r.id, evidence])) AS reached, collect(r) AS reached_nodes
}
// 2. the candidates of this phase: only rows some rule can hold, found without scanning the partition. An active
//    row with a broken reference was reached by the BFS (archived rows are BFS sources: their references are
//    checked below); a conflicted row by its index; a stale one is a role-tier memory; remove takes archived rows.
//    Collected as lists and deduplicated before one UNWIND: a UNION subquery here would have its rows buffered
//    with the big `reached` map beside each, which the transaction memory pool counts once per row.
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
UNWIND apoc.coll.toSet(reached_nodes + conflicted_nodes + role_nodes + archived_nodes) AS a
WITH a, reached
WHERE a.family IN ['memory', 'knowledge', 'skill']
  AND a.status = CASE $phase WHEN 'archive' THEN 'active' ELSE 'archived' END
  AND ($phase = 'archive' OR EXISTS {
        MATCH (p:DigestPass {state: 'finished'})-[:DECIDED]->(:Decision {action: 'archive'})-[:ABOUT]->(a)
        WHERE p.id <> $pass_id })
  AND ($phase = 'remove' OR reached[a.id] IS NOT NULL OR a.conflicted = true
       OR (a.family = 'memory' AND a.tier = 'role' AND coalesce(a.recall_count, 0) = 0
           AND coalesce(a.accessed_at, a.created_at) <= $stale_before))
// 3. the rules, each with its evidence
WITH a, reached,
     coalesce(a.conflicted, false) AS conflicted,
     a.family = 'memory' AND a.tier = 'role' AND coalesce(a.recall_count, 0) = 0
       AND coalesce(a.accessed_at, a.created_at) <= $stale_before AS stale
WITH a, conflicted, stale,
     coalesce(reached[a.id],
              head([(a)-[:DEPENDS_ON]->(x) WHERE x:Tombstone OR x.status IN ['archived', 'removed'] OR x.conflicted = true
                    | [a.id, x.id]]
                   + [(a)-[:DEPENDS_ON]->(x) WHERE reached[x.id] IS NOT NULL | [a.id] + reached[x.id]])) AS broken_path
WITH a, broken_path,
     [r IN [CASE WHEN broken_path IS NOT NULL THEN 'broken_reference' END,
            CASE WHEN conflicted THEN 'conflicted' END,
            CASE WHEN stale THEN 'stale' END] WHERE r IS NOT NULL] AS rules
WHERE size(rules) > 0
WITH a, broken_path, rules,
     [(sp)-[:SUPPORTS]->(a) WHERE sp.status = 'active' AND NOT coalesce(sp.stale, false)
                              AND NOT coalesce(sp.conflicted, false)
                              AND NOT (sp.family = 'memory' AND sp.tier = 'role' AND coalesce(sp.recall_count, 0) = 0
                                       AND coalesce(sp.accessed_at, sp.created_at) <= $stale_before)
        | sp.id] AS supporters,
     [(x)-[:SUPERSEDES]->(a) | x.id] AS superseders
RETURN a.id AS artifact_id, a.scope_id AS scope_id, a.family AS family, a.status AS status,
       CASE WHEN size(supporters) > 0 THEN 'keep' ELSE $phase END AS action,
       CASE WHEN size(supporters) > 0 THEN 'healthy_inbound_support' ELSE rules[0] END AS rule,
       rules,
       CASE WHEN size(supporters) > 0 THEN supporters
            WHEN rules[0] = 'broken_reference' THEN [broken_path[-1]]
            WHEN rules[0] = 'conflicted' THEN superseders
            ELSE [] END AS cites,
       coalesce(broken_path, []) AS path
ORDER BY artifact_id
