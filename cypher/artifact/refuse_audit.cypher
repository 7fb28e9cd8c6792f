// The only trace a refused write leaves: who, when, which rule, the content's SHA-256. Never the content.
// Params: $scope_id, $event_id, $now, $actor, $op, $code, $rule, $content_sha256, $family, $field
MATCH (s:Scope {id: $scope_id})
CREATE (:Event:Unsequenced {namespace: s.namespace, db_at: datetime.realtime(),
                id: $event_id, op: $op, at: $now, actor: $actor, scope_id: s.id, code: $code, rule: $rule,
                content_sha256: $content_sha256, family: $family, field: $field})
