// ValidAt(a): did `a` hold in the world at $as_of (valid time, docs/time.md)? Its validity [valid_from,
// valid_until) contains $as_of; a record without a validity of its own (skills, kernels, working state) always
// holds. A predicate over the variable `a` (a node or a map of its properties); $as_of is always a time (the
// call's clock when the caller named none). Python mirror: service.usecases.context.valid_at.
(a.valid_from IS NULL OR a.valid_from <= $as_of) AND (a.valid_until IS NULL OR a.valid_until > $as_of)
