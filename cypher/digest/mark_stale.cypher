// Staleness (INV-MEM-29) over one partition: role-tier memories with zero recalls whose last access is
// before $stale_before are flagged stale; a flag whose condition no longer holds is cleared.
// Set-based, and by index seeks only: the rows that can change are role-tier rows and rows flagged stale.
// Each change is an event (`stale` or `fresh`), so a `known_at` read replays the flag as it was.
// Returns how many flags changed. Params: $namespace, $owner, $stale_before, $now, $actor
MATCH (s:Scope {namespace: $namespace, cognitive_owner: $owner})
CALL (s) {
  MATCH (a:Artifact {scope_id: s.id, tier: 'role'}) USING INDEX a:Artifact(scope_id, tier)
  RETURN a
  UNION
  MATCH (a:Artifact {scope_id: s.id, stale: true}) USING INDEX a:Artifact(scope_id, stale)
  RETURN a
}
WITH a
WHERE a.family = 'memory' AND a.status = 'active'
WITH a, a.tier = 'role' AND coalesce(a.recall_count, 0) = 0
        AND coalesce(a.accessed_at, a.created_at) <= $stale_before AS stale
WHERE coalesce(a.stale, false) <> stale
SET a.stale = stale
CREATE (:Event:Unsequenced {namespace: $namespace, db_at: datetime.realtime(),
                id: randomUUID(), op: CASE WHEN stale THEN 'stale' ELSE 'fresh' END, at: $now, actor: $actor,
                scope_id: a.scope_id, artifact_id: a.id, family: a.family})
RETURN count(a) AS changed
