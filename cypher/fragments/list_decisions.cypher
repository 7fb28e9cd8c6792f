// kind: clauses
// Fragment LIST_DECISIONS: the `decisions` a rules fragment (DIGEST_RULES, GC_RULES) produced, unapplied (a dry
// run), as one list (one record is much cheaper for the client to read than one per decision). Each as the
// pass answers it (fragment DECISION_ANSWER), with the id the pass would give it. Params: $pass_id ('dry-run')
RETURN [d IN decisions | {{DECISION_ANSWER}}] AS decisions
