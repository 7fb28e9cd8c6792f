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
//
// Speed: no arm reads all its rows, and each answers exactly the rows, in the order, of the query
// this one replaced (context/assemble_reference.cypher, the tests' oracle):
// - constraints, instructions, environment, recent_episodes walk a composite range index (schema/0009, 0017)
//   backwards in the arm's order, id last (ties broken by id ↓, so rows that tie on the sort key, as a bulk
//   import leaves them, are not all read to be sorted), and stop at the limit. `a.trust` stands for the old
//   `coalesce(a.trust, 0.5)`: every artifact has a trust (the service always writes one; schema/0009 repaired
//   older rows).
// - preferences, knowledge, skills, profile rank by RetentionScore, which never falls when recall_count,
//   accessed_at, created_at or trust rises (digest/retention.py). Each reads five index-ordered lists of its
//   eligible rows (the top $cand_first by each of those four and by updated_at then id, its tie-break) through
//   indexes whose equality prefix is the arm's whole filter (the kind for preferences, the family for knowledge
//   and skills, family and tier for the profile: filtering the tier after the index read every memory of a
//   scope with no role-tier rows) and ranks only their union (the recall_count and accessed_at indexes hold only
//   the rows these arms read, marked `ranked`: fragments/ranked.cypher, schema/0024);
//   fragments/retention_top.cypher proves the answer
//   exact or says it is not (`exact`). Then the same lists are read $cand long and the proof asked again, and
//   only if that fails too the arm scores every row as before when it has at most $scan_max rows (the same
//   answer); a larger arm answers the top of the long lists' union, so no call reads a whole scope. The four
//   arms run as one pipeline (a row per arm: their lists differ, the ranking, the proof and the fallback are written once), because Neo4j's
//   planning time grows with the query's text: four copies of the pipeline took ~12 s to plan, one ~4.5 s
//   (docs/context-and-ranking.md), paid on a Neo4j's first call and at each statistics replan.
// - the lock tail reads, under the lock, only the properties RecallQualityOK and the count need.
// Params: $scope_id, $arms (map arm -> requested), $limits (map arm -> n), $now, $as_of (valid time: the arms hold
//         what was valid then; RecallQualityOK asks it), $w (retention weights),
//         $cand_first, $cand (the lengths of the retention lists, first and second reading), $scan_max,
//         and those of fragments/hybrid_rank.cypher for relevant_memories ($families = ['memory'], $statuses = ['active']),
//         with $q.held (the version guard below: null, or the version of the scope-index copy that ranked
//         $q.ft_ids and $q.vec_ids)
// Yields one row: found (the scope exists), current (the guard held), recalled, arms, rows.
//
// The version guard (fragments/version_guard.cypher): when the relevant memories were ranked by the copy of the
// scope the caller's process holds, and the scope moved since, no arm selects anything and nothing is counted.
{{VERSION_GUARD}}
OPTIONAL MATCH (scope:Scope {id: $scope_id}) WHERE scope.deleting IS NULL
WITH scope IS NOT NULL AS found, current, CASE WHEN current THEN scope END AS s
OPTIONAL CALL (s) {
  // constraints: memories of kind constraint; most trusted first, then most recently updated
  WITH s WHERE s IS NOT NULL AND $arms.constraints
  MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, kind, status, trust, updated_at, id)
  WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.kind = 'constraint' AND {{RECALL_QUALITY_OK}}
    AND a.trust IS NOT NULL AND a.updated_at IS NOT NULL AND a.id IS NOT NULL
    AND {{EAGER_TRUSTED_OK}}  // tool / web / import sources only once an operator approved them
  WITH a ORDER BY a.scope_id DESC, a.family DESC, a.kind DESC, a.status DESC, a.trust DESC, a.updated_at DESC, a.id DESC LIMIT $limits.constraints
  RETURN 'constraints' AS arm, collect(a) AS items
  UNION ALL
  // instructions: memories of kind instruction; most trusted first, then most recently updated
  WITH s WHERE s IS NOT NULL AND $arms.instructions
  MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, kind, status, trust, updated_at, id)
  WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.kind = 'instruction' AND {{RECALL_QUALITY_OK}}
    AND a.trust IS NOT NULL AND a.updated_at IS NOT NULL AND a.id IS NOT NULL
    AND {{EAGER_TRUSTED_OK}}  // tool / web / import sources only once an operator approved them
  WITH a ORDER BY a.scope_id DESC, a.family DESC, a.kind DESC, a.status DESC, a.trust DESC, a.updated_at DESC, a.id DESC LIMIT $limits.instructions
  RETURN 'instructions' AS arm, collect(a) AS items
  UNION ALL
  // environment: memories of kind environment; most recently updated first
  WITH s WHERE s IS NOT NULL AND $arms.environment
  MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, kind, status, updated_at, id)
  WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.kind = 'environment' AND {{RECALL_QUALITY_OK}}
    AND a.updated_at IS NOT NULL AND a.id IS NOT NULL
  WITH a ORDER BY a.scope_id DESC, a.family DESC, a.kind DESC, a.status DESC, a.updated_at DESC, a.id DESC LIMIT $limits.environment
  RETURN 'environment' AS arm, collect(a) AS items
  UNION ALL
  // retention: the arms preferences, knowledge, skills and profile, highest RetentionScore first, in one
  // pipeline (a row per requested arm). `family` is the arm's family; `role` marks the profile, whose memories
  // are the role tier's other than episodes and whose kernels (the agent's, then the world's, each only when not
  // empty) always rank first, as `pool`.
  WITH s WHERE s IS NOT NULL
  UNWIND [arm IN ['preferences', 'knowledge', 'skills', 'profile'] WHERE $arms[arm]] AS arm
  WITH arm, CASE arm WHEN 'knowledge' THEN 'knowledge' WHEN 'skills' THEN 'skill' ELSE 'memory' END AS family,
       arm = 'profile' AS role, $limits[arm] AS n
  WITH arm, family, role, n,
       CASE WHEN role THEN COLLECT {
         MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, status)
         WHERE a.scope_id = $scope_id AND a.family IN ['agent_kernel', 'world_kernel']
           AND {{RECALL_QUALITY_OK}} AND trim(coalesce(a.content, '')) <> '' RETURN a } ELSE [] END AS pool
  // the five lists, $cand_first long
  CALL (arm, family) {
    // preferences: memories of kind preference, read through the kind's indexes
    WITH arm WHERE arm = 'preferences'
    RETURN [
        COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, kind, status, recall_count, ranked)
                  WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.kind = 'preference' AND {{RECALL_QUALITY_OK}} AND a.recall_count IS NOT NULL AND a.ranked = true
                  RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.kind DESC, a.status DESC, a.recall_count DESC LIMIT $cand_first },
        COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, kind, status, accessed_at, ranked)
                  WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.kind = 'preference' AND {{RECALL_QUALITY_OK}} AND a.accessed_at IS NOT NULL AND a.ranked = true
                  RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.kind DESC, a.status DESC, a.accessed_at DESC LIMIT $cand_first },
        COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, kind, status, created_at, id)
                  WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.kind = 'preference' AND {{RECALL_QUALITY_OK}} AND a.created_at IS NOT NULL AND a.id IS NOT NULL
                  RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.kind DESC, a.status DESC, a.created_at DESC LIMIT $cand_first },
        COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, kind, status, trust, updated_at, id)
                  WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.kind = 'preference' AND {{RECALL_QUALITY_OK}} AND a.trust IS NOT NULL AND a.updated_at IS NOT NULL AND a.id IS NOT NULL
                  RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.kind DESC, a.status DESC, a.trust DESC LIMIT $cand_first },
        COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, kind, status, updated_at, id)
                  WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.kind = 'preference' AND {{RECALL_QUALITY_OK}} AND a.updated_at IS NOT NULL AND a.id IS NOT NULL
                  RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.kind DESC, a.status DESC, a.updated_at DESC, a.id DESC LIMIT $cand_first }
    ] AS lists
    UNION ALL
    // knowledge pages and skills: through the family's indexes
    WITH arm, family WHERE arm IN ['knowledge', 'skills']
    RETURN [
        COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, status, recall_count, ranked)
                  WHERE a.scope_id = $scope_id AND a.family = family AND {{RECALL_QUALITY_OK}} AND a.recall_count IS NOT NULL AND a.ranked = true
                  RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.status DESC, a.recall_count DESC LIMIT $cand_first },
        COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, status, accessed_at, ranked)
                  WHERE a.scope_id = $scope_id AND a.family = family AND {{RECALL_QUALITY_OK}} AND a.accessed_at IS NOT NULL AND a.ranked = true
                  RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.status DESC, a.accessed_at DESC LIMIT $cand_first },
        COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, status, created_at)
                  WHERE a.scope_id = $scope_id AND a.family = family AND {{RECALL_QUALITY_OK}} AND a.created_at IS NOT NULL
                  RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.status DESC, a.created_at DESC LIMIT $cand_first },
        COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, status, trust)
                  WHERE a.scope_id = $scope_id AND a.family = family AND {{RECALL_QUALITY_OK}} AND a.trust IS NOT NULL AND a.updated_at IS NOT NULL
                  RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.status DESC, a.trust DESC LIMIT $cand_first },
        COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, status, updated_at, id)
                  WHERE a.scope_id = $scope_id AND a.family = family AND {{RECALL_QUALITY_OK}} AND a.updated_at IS NOT NULL AND a.id IS NOT NULL
                  RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.status DESC, a.updated_at DESC, a.id DESC LIMIT $cand_first }
    ] AS lists
    UNION ALL
    // the profile's role-tier memories other than episodes: through the tier's indexes
    WITH arm WHERE arm = 'profile'
    RETURN [
        COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, tier, status, recall_count, ranked)
                  WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.tier = 'role' AND a.kind <> 'episodic' AND {{RECALL_QUALITY_OK}} AND a.recall_count IS NOT NULL AND a.ranked = true
                  RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.tier DESC, a.status DESC, a.recall_count DESC LIMIT $cand_first },
        COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, tier, status, accessed_at, ranked)
                  WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.tier = 'role' AND a.kind <> 'episodic' AND {{RECALL_QUALITY_OK}} AND a.accessed_at IS NOT NULL AND a.ranked = true
                  RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.tier DESC, a.status DESC, a.accessed_at DESC LIMIT $cand_first },
        COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, tier, status, created_at)
                  WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.tier = 'role' AND a.kind <> 'episodic' AND {{RECALL_QUALITY_OK}} AND a.created_at IS NOT NULL
                  RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.tier DESC, a.status DESC, a.created_at DESC LIMIT $cand_first },
        COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, tier, status, trust)
                  WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.tier = 'role' AND a.kind <> 'episodic' AND {{RECALL_QUALITY_OK}} AND a.trust IS NOT NULL AND a.updated_at IS NOT NULL
                  RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.tier DESC, a.status DESC, a.trust DESC LIMIT $cand_first },
        COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, tier, status, updated_at, id)
                  WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.tier = 'role' AND a.kind <> 'episodic' AND {{RECALL_QUALITY_OK}} AND a.updated_at IS NOT NULL AND a.id IS NOT NULL
                  RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.tier DESC, a.status DESC, a.updated_at DESC, a.id DESC LIMIT $cand_first }
    ] AS lists
  }
  WITH arm, family, role, pool, n, lists, $cand_first AS depth
  {{RETENTION_TOP}}
  WITH arm, family, role, pool, n, top, exact AS shallow
  OPTIONAL CALL (arm, family, role, pool, n, shallow) {
    // the short lists proved nothing: the same lists, $cand long
    WITH arm, family, role, pool, n WHERE NOT shallow
    CALL (arm, family) {
      // preferences: memories of kind preference, read through the kind's indexes
      WITH arm WHERE arm = 'preferences'
      RETURN [
          COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, kind, status, recall_count, ranked)
                    WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.kind = 'preference' AND {{RECALL_QUALITY_OK}} AND a.recall_count IS NOT NULL AND a.ranked = true
                    RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.kind DESC, a.status DESC, a.recall_count DESC LIMIT $cand },
          COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, kind, status, accessed_at, ranked)
                    WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.kind = 'preference' AND {{RECALL_QUALITY_OK}} AND a.accessed_at IS NOT NULL AND a.ranked = true
                    RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.kind DESC, a.status DESC, a.accessed_at DESC LIMIT $cand },
          COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, kind, status, created_at, id)
                    WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.kind = 'preference' AND {{RECALL_QUALITY_OK}} AND a.created_at IS NOT NULL AND a.id IS NOT NULL
                    RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.kind DESC, a.status DESC, a.created_at DESC LIMIT $cand },
          COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, kind, status, trust, updated_at, id)
                    WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.kind = 'preference' AND {{RECALL_QUALITY_OK}} AND a.trust IS NOT NULL AND a.updated_at IS NOT NULL AND a.id IS NOT NULL
                    RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.kind DESC, a.status DESC, a.trust DESC LIMIT $cand },
          COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, kind, status, updated_at, id)
                    WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.kind = 'preference' AND {{RECALL_QUALITY_OK}} AND a.updated_at IS NOT NULL AND a.id IS NOT NULL
                    RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.kind DESC, a.status DESC, a.updated_at DESC, a.id DESC LIMIT $cand }
      ] AS lists
      UNION ALL
      // knowledge pages and skills: through the family's indexes
      WITH arm, family WHERE arm IN ['knowledge', 'skills']
      RETURN [
          COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, status, recall_count, ranked)
                    WHERE a.scope_id = $scope_id AND a.family = family AND {{RECALL_QUALITY_OK}} AND a.recall_count IS NOT NULL AND a.ranked = true
                    RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.status DESC, a.recall_count DESC LIMIT $cand },
          COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, status, accessed_at, ranked)
                    WHERE a.scope_id = $scope_id AND a.family = family AND {{RECALL_QUALITY_OK}} AND a.accessed_at IS NOT NULL AND a.ranked = true
                    RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.status DESC, a.accessed_at DESC LIMIT $cand },
          COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, status, created_at)
                    WHERE a.scope_id = $scope_id AND a.family = family AND {{RECALL_QUALITY_OK}} AND a.created_at IS NOT NULL
                    RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.status DESC, a.created_at DESC LIMIT $cand },
          COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, status, trust)
                    WHERE a.scope_id = $scope_id AND a.family = family AND {{RECALL_QUALITY_OK}} AND a.trust IS NOT NULL AND a.updated_at IS NOT NULL
                    RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.status DESC, a.trust DESC LIMIT $cand },
          COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, status, updated_at, id)
                    WHERE a.scope_id = $scope_id AND a.family = family AND {{RECALL_QUALITY_OK}} AND a.updated_at IS NOT NULL AND a.id IS NOT NULL
                    RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.status DESC, a.updated_at DESC, a.id DESC LIMIT $cand }
      ] AS lists
      UNION ALL
      // the profile's role-tier memories other than episodes: through the tier's indexes
      WITH arm WHERE arm = 'profile'
      RETURN [
          COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, tier, status, recall_count, ranked)
                    WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.tier = 'role' AND a.kind <> 'episodic' AND {{RECALL_QUALITY_OK}} AND a.recall_count IS NOT NULL AND a.ranked = true
                    RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.tier DESC, a.status DESC, a.recall_count DESC LIMIT $cand },
          COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, tier, status, accessed_at, ranked)
                    WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.tier = 'role' AND a.kind <> 'episodic' AND {{RECALL_QUALITY_OK}} AND a.accessed_at IS NOT NULL AND a.ranked = true
                    RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.tier DESC, a.status DESC, a.accessed_at DESC LIMIT $cand },
          COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, tier, status, created_at)
                    WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.tier = 'role' AND a.kind <> 'episodic' AND {{RECALL_QUALITY_OK}} AND a.created_at IS NOT NULL
                    RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.tier DESC, a.status DESC, a.created_at DESC LIMIT $cand },
          COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, tier, status, trust)
                    WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.tier = 'role' AND a.kind <> 'episodic' AND {{RECALL_QUALITY_OK}} AND a.trust IS NOT NULL AND a.updated_at IS NOT NULL
                    RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.tier DESC, a.status DESC, a.trust DESC LIMIT $cand },
          COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, tier, status, updated_at, id)
                    WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.tier = 'role' AND a.kind <> 'episodic' AND {{RECALL_QUALITY_OK}} AND a.updated_at IS NOT NULL AND a.id IS NOT NULL
                    RETURN a ORDER BY a.scope_id DESC, a.family DESC, a.tier DESC, a.status DESC, a.updated_at DESC, a.id DESC LIMIT $cand }
      ] AS lists
    }
    WITH arm, family, role, pool, n, lists, $cand AS depth
    {{RETENTION_TOP}}
    RETURN top AS deep_top, exact AS deep_exact
  }
  WITH arm, family, role, pool, n, CASE WHEN shallow THEN top ELSE deep_top END AS top,
       shallow OR coalesce(deep_exact, false) AS exact
  OPTIONAL CALL (arm, family, role, pool, n, exact) {
    // the proof did not hold: score every row of the arm, as context/assemble_reference.cypher does, when the arm
    // has at most $scan_max rows; a larger arm keeps the top of the longer lists' union (its best rows by each
    // property), so no call reads a whole scope (`scanned` is null then)
    WITH arm, family, role, pool, n WHERE NOT exact
    CALL (arm, family) {
      WITH arm WHERE arm = 'preferences'
      RETURN COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, kind, status, recall_count, ranked)
                       WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.kind = 'preference'
                         AND {{RECALL_QUALITY_OK}} AND a.recall_count IS NOT NULL AND a.ranked = true
                       RETURN a LIMIT $scan_max + 1 } AS rows
      UNION ALL
      WITH arm, family WHERE arm IN ['knowledge', 'skills']
      RETURN COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, status, recall_count, ranked)
                       WHERE a.scope_id = $scope_id AND a.family = family AND {{RECALL_QUALITY_OK}}
                         AND a.recall_count IS NOT NULL AND a.ranked = true
                       RETURN a LIMIT $scan_max + 1 } AS rows
      UNION ALL
      WITH arm WHERE arm = 'profile'
      RETURN COLLECT { MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, tier, status, recall_count, ranked)
                       WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.tier = 'role'
                         AND a.kind <> 'episodic' AND {{RECALL_QUALITY_OK}} AND a.recall_count IS NOT NULL AND a.ranked = true
                       RETURN a LIMIT $scan_max + 1 } AS rows
    }
    WITH pool, rows, size(rows) <= $scan_max AS fits
    CALL (pool, rows, fits) {
      WITH pool, rows WHERE fits
      UNWIND rows + pool AS a  // the profile's kernels (with something to say) among them
      CALL (a) {
        WITH a AS m
        RETURN {{RETENTION_SCORE}} AS retention
      }
      WITH a ORDER BY CASE a.family WHEN 'agent_kernel' THEN 0 WHEN 'world_kernel' THEN 1 ELSE 2 END,
                      retention DESC, a.updated_at DESC, a.id DESC
      RETURN collect(a) AS ranked
    }
    RETURN CASE WHEN fits THEN ranked END AS scanned
  }
  RETURN arm, CASE WHEN exact OR scanned IS NULL THEN top ELSE scanned[..n] END AS items
  UNION ALL
  // recent_episodes: memories of kind episodic; the latest to have happened first (occurred_at: a conversation
  // imported late is not new), and none that happened after $as_of
  WITH s WHERE s IS NOT NULL AND $arms.recent_episodes
  MATCH (a:Artifact) USING INDEX a:Artifact(scope_id, family, kind, status, occurred_at, id)
  WHERE a.scope_id = $scope_id AND a.family = 'memory' AND a.kind = 'episodic' AND {{RECALL_QUALITY_OK}}
    AND a.occurred_at <= $as_of AND a.id IS NOT NULL
  WITH a ORDER BY a.scope_id DESC, a.family DESC, a.kind DESC, a.status DESC, a.occurred_at DESC, a.id DESC LIMIT $limits.recent_episodes
  RETURN 'recent_episodes' AS arm, collect(a) AS items
  UNION ALL
  // relevant_memories: memories of any kind, hybrid-ranked against the query (nothing without one)
  WITH s WHERE s IS NOT NULL AND $arms.relevant_memories AND ($q.lucene IS NOT NULL OR $q.qvec IS NOT NULL)
  {{HYBRID_RANK}}
  WITH a, score WHERE a.scope_id = $scope_id AND a.family = 'memory' AND {{RECALL_QUALITY_OK}}
  WITH a ORDER BY score DESC, a.id LIMIT $limits.relevant_memories
  RETURN 'relevant_memories' AS arm, collect(a) AS items
}
WITH found, current, [x IN collect({arm: arm, items: items}) WHERE x.arm IS NOT NULL] AS arms
// Concurrency rule (lock, then read): take the write lock of what was selected (apoc.lock.nodes, in id order, the
// same order every context call takes), then ask
// RecallQualityOK again of what is committed now, read through apoc.any.properties (a plain a.status would be the
// value cached at selection, before the lock; see artifact/update.cypher): a row superseded, archived or deleted
// by a transaction that committed after selection is dropped, and none can change until this transaction ends.
// Recalls are counted from the value read under the lock, so concurrent recalls of one row never lose a count.
// (apoc.lock.nodes takes the same exclusive locks as writing a marker property to each row did, without the two
// property writes per row: measured 6 ms of a 100,000-memory call.)
// guards: n.status, n.stale, n.conflicted, n.recall_count, n.valid_from, n.valid_until
WITH found, current, arms,
     apoc.coll.sortNodes(apoc.coll.toSet(apoc.coll.flatten([x IN arms | x.items])), '^id') AS picked
CALL apoc.lock.nodes(picked)
// Only what RecallQualityOK and the count read, not the content; picked[i] and locked[i] are the same row.
WITH found, current, arms, picked,
     [n IN picked | apoc.any.properties(n, ['id', 'family', 'status', 'stale', 'conflicted', 'recall_count',
                                            'valid_from', 'valid_until'])]
     AS locked
WITH found, current, arms, picked, locked
CALL (picked, locked) {
  UNWIND range(0, size(picked) - 1) AS i
  WITH picked[i] AS n, locked[i] AS a
  WHERE {{RECALL_QUALITY_OK}}
  SET n.recall_count = coalesce(a.recall_count, 0) + 1, n.accessed_at = $now
  RETURN collect(a.id) AS good, count(*) AS recalled
}
// Each arm names its rows by id; every row is projected once (a role-tier preference is in two arms), as
// ArtifactRow, its times as ISO-8601 text: the driver's DateTime hydration of ~330 values was ~20 ms of a
// 100,000-memory call.
RETURN found, current, recalled,
       [x IN arms | {arm: x.arm, ids: [n IN x.items WHERE n.id IN good | n.id]}] AS arms,
       [a IN picked WHERE a.id IN good | {{ARTIFACT_ROW}}] AS rows
