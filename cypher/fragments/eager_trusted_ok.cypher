// EagerTrustedOK(a) — provenance (docs/security.md): may this memory give orders unasked? A memory whose source is
// tool, web or import (text somebody else wrote) reaches the eager constraints / instructions arms of
// context/assemble.cypher only once an operator approved it (approved_by, set by the approve route). Records
// saved before provenance was recorded (no source) pass. A predicate over `a`; Python mirror:
// service.gates.provenance.eager_trusted_ok.
// Written as a CASE, not an OR: the planner answers an OR over an index by a union of two seeks, which loses the
// index's order, and the arm then reads and sorts all its rows instead of stopping at its limit.
CASE WHEN coalesce(a.source, 'agent') IN ['user', 'agent'] THEN true ELSE a.approved_by IS NOT NULL END
