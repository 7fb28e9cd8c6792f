// RevisionState(x): what a revision keeps of the artifact `x` as it is after a change — the caller's fields and
// the service's validity and supersession flag — so that the record as the store held it at any instant (a
// `known_at` read, fragment STATE_AT) is the revision current then. Kind, tier, family and source never change.
// A map over the variable `x`, to `SET rev = …` (its null values are left out, as SET leaves them).
x {artifact_id: x.id, scope_id: x.scope_id, .content, .content_hash, .title, .name, .when_to_use, .steps, .tags,
   .subject, .trust, .metadata, .occurred_at, .valid_from, .valid_until, .conflicted, .approved_by}
