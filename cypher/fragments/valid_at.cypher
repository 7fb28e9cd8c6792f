// ValidAt(a): did `a` hold in the world at $as_of (valid time, docs/time.md)? Its validity [valid_from,
// valid_until) contains $as_of; a record without a validity of its own (skills, kernels, working state) always
// holds. A predicate over the variable `a` (a node or a map of its properties); $as_of is always a time (the
// call's clock when the caller named none). Python mirror: service.usecases.timeview.valid_at.
// Written with coalesce, not OR: the planner answers an OR beside an index's predicates by a union of seeks,
// which loses the index's order, and a context arm then reads and sorts all its rows (see EAGER_TRUSTED_OK).
coalesce(a.valid_from <= $as_of, true) AND coalesce(a.valid_until > $as_of, true)
