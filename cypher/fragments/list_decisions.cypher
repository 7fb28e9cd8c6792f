// kind: clauses
// Fragment LIST_DECISIONS: the decisions a rules fragment (DIGEST_RULES, GC_RULES) produced, unapplied (a dry
// run). Follows a subquery that returns them one row each as `d`. Ids are what the pass would give them.
// Params: $pass_id ('dry-run')
RETURN $pass_id + ':' + d.id + ':' + d.action AS id, d.id AS artifact_id, d.scope_id AS scope_id, d.family AS family,
       d.status AS status, d.action AS action, d.rule AS rule, d.rules AS rules, [e IN d.cites | e.id] AS cites,
       d.path AS path, d.detail AS detail
