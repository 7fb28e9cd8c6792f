// RecallQualityOK(a) — INV-MEM-50 (docs/design.md): is this row still good enough to place before a model
// unasked? Not stale, not conflicted (superseded), status active (so not pending, archived or removed), and
// never working state. The one definition: every arm of context/assemble.cypher includes this file where
// the RECALL_QUALITY_OK placeholder stands (substituted once, at load time, by cypher.compose), beside the arm's
// own visibility check (a.scope_id = $scope_id). Explicit search never includes it.
// A predicate over the variable `a`; Python mirror: service.usecases.context.recall_quality_ok.
a.status = 'active'
AND a.family <> 'working_state'
AND coalesce(a.stale, false) = false
AND coalesce(a.conflicted, false) = false
