// kind: clauses
// Fragment LIST_DECISIONS: the `decisions` a rules fragment (DIGEST_RULES, GC_RULES) produced, unapplied (a dry
// run), as one list (one record is much cheaper for the client to read than one per decision). Ids are what
// the pass would give them. Params: $pass_id ('dry-run')
RETURN [d IN decisions | {id: $pass_id + ':' + d.id + ':' + d.action, artifact_id: d.id, scope_id: d.scope_id,
                          family: d.family, action: d.action, rule: d.rule, rules: d.rules,
                          cites: [e IN d.cites | e.id], path: d.path, detail: d.detail}] AS decisions
