// Import, last statement of the import transaction: the one `import` event.
// Params: $event_id, $scope_id, $at, $actor, $counts (map), $sha256, $keep_ids, $format
CREATE (e:Event:Unsequenced {id: $event_id, op: 'import',
         at: $at, actor: $actor, scope_id: $scope_id, sha256: $sha256,
                 keep_ids: $keep_ids, format: $format})
SET e.namespace = COLLECT { MATCH (ns_s:Scope {id: e.scope_id}) RETURN ns_s.namespace }[0],
    e.db_at = datetime.realtime()
SET e += $counts
RETURN e.id AS id
