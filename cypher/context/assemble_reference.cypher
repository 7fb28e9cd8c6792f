// THE ORACLE (tests only): the context query written plainly — every arm selects all its rows and
// sorts them (the retention arms score every row). tests/integration/test_context_oracle.py holds
// context/assemble.cypher to exactly its rows and order on random scopes. Not used by the service.
// Context: the arms of one recall surface for one scope, assembled in ONE query (one round trip, one
// transaction). The arms (defined in service/usecases/context.py; docs/design.md):
//   eager      constraints, instructions, environment, preferences, recent_episodes
//   lazy       relevant_memories (query-driven: fragments/hybrid_rank.cypher), knowledge, skills
//   cold start profile
// Every arm asks two questions: visibility (a.scope_id = $scope_id) and RecallQualityOK (one definition,
// fragments/recall_quality_ok.cypher, included where its placeholder stands). The selected rows are then
// locked and RecallQualityOK is asked again under the lock (Neo4j reads committed data, so a supersession that
// commits between selection and lock would otherwise slip through); what survives counts as a recall
// (recall_count + 1, accessed_at = $now) in this same transaction.
// Params: $scope_id, $arms (map arm -> requested), $limits (map arm -> n), $now, $as_of, $w (retention weights),
//         and those of fragments/hybrid_rank.cypher for relevant_memories ($families = ['memory'], $statuses = ['active'])
OPTIONAL MATCH (s:Scope {id: $scope_id}) WHERE s.deleting IS NULL
OPTIONAL CALL (s) {
  // constraints: memories of kind constraint; most trusted first, then most recently updated
  WITH s WHERE s IS NOT NULL AND $arms.constraints
  MATCH (a:Artifact)
  WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.kind = 'constraint' AND {{RECALL_QUALITY_OK}}
    AND {{EAGER_TRUSTED_OK}}  // tool / web / import sources only once an operator approved them
  WITH a ORDER BY coalesce(a.trust, 0.5) DESC, a.updated_at DESC, a.id DESC LIMIT $limits.constraints
  RETURN 'constraints' AS arm, collect(a) AS items
  UNION ALL
  // instructions: memories of kind instruction; most trusted first, then most recently updated
  WITH s WHERE s IS NOT NULL AND $arms.instructions
  MATCH (a:Artifact)
  WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.kind = 'instruction' AND {{RECALL_QUALITY_OK}}
    AND {{EAGER_TRUSTED_OK}}  // tool / web / import sources only once an operator approved them
  WITH a ORDER BY coalesce(a.trust, 0.5) DESC, a.updated_at DESC, a.id DESC LIMIT $limits.instructions
  RETURN 'instructions' AS arm, collect(a) AS items
  UNION ALL
  // environment: memories of kind environment; most recently updated first
  WITH s WHERE s IS NOT NULL AND $arms.environment
  MATCH (a:Artifact)
  WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.kind = 'environment' AND {{RECALL_QUALITY_OK}}
  WITH a ORDER BY a.updated_at DESC, a.id DESC LIMIT $limits.environment
  RETURN 'environment' AS arm, collect(a) AS items
  UNION ALL
  // preferences: memories of kind preference; highest retention first
  WITH s WHERE s IS NOT NULL AND $arms.preferences
  MATCH (a:Artifact)
  WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.kind = 'preference' AND {{RECALL_QUALITY_OK}}
  CALL (a) {
    WITH a AS m
    RETURN {{RETENTION_SCORE}} AS retention
  }
  WITH a ORDER BY retention DESC, a.updated_at DESC, a.id DESC LIMIT $limits.preferences
  RETURN 'preferences' AS arm, collect(a) AS items
  UNION ALL
  // recent_episodes: memories of kind episodic; the latest to have happened (by $as_of) first
  WITH s WHERE s IS NOT NULL AND $arms.recent_episodes
  MATCH (a:Artifact)
  WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.kind = 'episodic' AND {{RECALL_QUALITY_OK}}
    AND a.occurred_at <= $as_of
  WITH a ORDER BY a.occurred_at DESC, a.id DESC LIMIT $limits.recent_episodes
  RETURN 'recent_episodes' AS arm, collect(a) AS items
  UNION ALL
  // relevant_memories: memories of any kind, hybrid-ranked against the query (nothing without one)
  WITH s WHERE s IS NOT NULL AND $arms.relevant_memories AND ($q.lucene IS NOT NULL OR $q.qvec IS NOT NULL)
  {{HYBRID_RANK}}
  WITH a, score WHERE a.scope_id = $scope_id AND a.family = 'memory' AND {{RECALL_QUALITY_OK}}
  WITH a ORDER BY score DESC, a.id LIMIT $limits.relevant_memories
  RETURN 'relevant_memories' AS arm, collect(a) AS items
  UNION ALL
  // knowledge: knowledge pages; highest retention first
  WITH s WHERE s IS NOT NULL AND $arms.knowledge
  MATCH (a:Artifact)
  WHERE a.scope_id = $scope_id AND a.family = 'knowledge' AND {{RECALL_QUALITY_OK}}
  CALL (a) {
    WITH a AS m
    RETURN {{RETENTION_SCORE}} AS retention
  }
  WITH a ORDER BY retention DESC, a.updated_at DESC, a.id DESC LIMIT $limits.knowledge
  RETURN 'knowledge' AS arm, collect(a) AS items
  UNION ALL
  // skills: skills; highest retention first
  WITH s WHERE s IS NOT NULL AND $arms.skills
  MATCH (a:Artifact)
  WHERE a.scope_id = $scope_id AND a.family = 'skill' AND {{RECALL_QUALITY_OK}}
  CALL (a) {
    WITH a AS m
    RETURN {{RETENTION_SCORE}} AS retention
  }
  WITH a ORDER BY retention DESC, a.updated_at DESC, a.id DESC LIMIT $limits.skills
  RETURN 'skills' AS arm, collect(a) AS items
  UNION ALL
  // profile: the agent kernel, then the world kernel (when they say something), then role-tier memories
  // (the long-lived role memory) other than episodes, highest retention first
  WITH s WHERE s IS NOT NULL AND $arms.profile
  MATCH (a:Artifact)
  WHERE a.scope_id = $scope_id AND {{RECALL_QUALITY_OK}}
    AND ((a.family IN ['agent_kernel', 'world_kernel'] AND trim(coalesce(a.content, '')) <> '')
         OR (a.family = 'memory' AND a.tier = 'role' AND a.kind <> 'episodic'))
  CALL (a) {
    WITH a AS m
    RETURN {{RETENTION_SCORE}} AS retention
  }
  WITH a ORDER BY CASE a.family WHEN 'agent_kernel' THEN 0 WHEN 'world_kernel' THEN 1 ELSE 2 END,
                  retention DESC, a.updated_at DESC, a.id DESC
  LIMIT $limits.profile
  RETURN 'profile' AS arm, collect(a) AS items
}
WITH s, [x IN collect({arm: arm, items: items}) WHERE x.arm IS NOT NULL] AS arms
// Concurrency rule (lock by write, then read): lock what was selected by writing to it (in id order, the same
// order every context call takes), then ask
// RecallQualityOK again of what is committed now, read through apoc.any.properties (a plain a.status would be the
// value cached at selection, before the lock; see artifact/update.cypher): a row superseded, archived or deleted
// by a transaction that committed after selection is dropped, and none can change until this transaction ends.
// Recalls are counted from the value read under the lock, so concurrent recalls of one row never lose a count.
// guards: n.status, n.stale, n.conflicted, n.recall_count, n.valid_from, n.valid_until
WITH s, arms, apoc.coll.sortNodes(apoc.coll.toSet(apoc.coll.flatten([x IN arms | x.items])), '^id') AS picked
FOREACH (n IN picked | SET n._lock = true)
WITH s, arms, picked, [n IN picked | apoc.any.properties(n)] AS locked
FOREACH (n IN picked | REMOVE n._lock)
WITH s, arms, locked, [a IN locked WHERE {{RECALL_QUALITY_OK}} | a.id] AS good
WITH s, locked, [x IN arms | {arm: x.arm, items: [n IN x.items WHERE n.id IN good]}] AS arms
CALL (arms, locked) {
  UNWIND arms AS x
  UNWIND x.items AS n
  WITH DISTINCT n, locked
  WITH n, [l IN locked WHERE l.id = n.id][0] AS was
  SET n.recall_count = coalesce(was.recall_count, 0) + 1, n.accessed_at = $now
  RETURN count(n) AS recalled
}
RETURN s IS NOT NULL AS found, recalled,
       [x IN arms | {arm: x.arm,
                     items: [a IN x.items | a {.*, embedding: null,
                                               relations: [(a)-[r:RELATES_TO]->(b) | {type: r.type, to_id: b.id}]}]}]
       AS arms
