// EagerTrustedOK(a) — provenance (docs/security.md): may this memory give orders unasked? A memory whose source is
// tool, web or import (text somebody else wrote) reaches the eager constraints / instructions arms of
// context/assemble.cypher only once an operator approved it (approved_by, set by the approve route). Records
// saved before provenance was recorded (no source) pass. A predicate over `a`; Python mirror:
// service.gates.provenance.eager_trusted_ok.
coalesce(a.source, 'agent') IN ['user', 'agent'] OR a.approved_by IS NOT NULL
