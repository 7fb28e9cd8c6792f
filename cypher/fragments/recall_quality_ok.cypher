// RecallQualityOK(a) — INV-MEM-50 (docs/design.md): is this row still good enough to place before a model
// unasked? Not stale, status active (so not pending, archived or removed), never working state, and valid at
// $as_of (fragment VALID_AT: a superseded record's validity is closed, so it is left out from then on; one flagged
// conflicted without a closed validity is left out always). The one definition: every arm of
// context/assemble.cypher includes this file where the RECALL_QUALITY_OK placeholder stands (substituted once, at
// load time, by cypher.compose), beside the arm's own visibility check (a.scope_id = $scope_id). Explicit search
// never includes it.
// A predicate over the variable `a`; Python mirror: service.usecases.context.recall_quality_ok. No OR in it (a CASE,
// a coalesce): the planner answers an OR beside an index's predicates by a union of seeks, which loses the index's
// order (see EAGER_TRUSTED_OK), and an arm then reads and sorts all its rows.
a.status = 'active'
AND a.family <> 'working_state'
AND coalesce(a.stale, false) = false
AND CASE WHEN coalesce(a.conflicted, false) THEN a.valid_until IS NOT NULL ELSE true END
AND {{VALID_AT}}
