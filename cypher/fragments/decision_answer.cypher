// Fragment DECISION_ANSWER: one decision `d` of a rules fragment (DIGEST_RULES, GC_RULES) as the pass and a dry
// run answer it, with the id the pass gives its :Decision node ($pass_id, then the artifact and the action: a
// resumed pass finds its own decisions by it). Shared by APPLY_DECISIONS and LIST_DECISIONS, so a dry run lists
// exactly what a pass would answer. Types the planner can see (strings, lists of strings): APPLY_DECISIONS
// projects it before its writes, and a value the planner could not prove is no deleted node would make it
// buffer the whole batch after them.
{id: $pass_id + ':' + d.id + ':' + d.action, artifact_id: toString(d.id), scope_id: toString(d.scope_id),
 family: toString(d.family), action: toString(d.action), rule: toString(d.rule), rules: [r IN d.rules | toString(r)],
 cites: [e IN d.cites | toString(e.id)], path: [x IN d.path | toString(x)], detail: toString(d.detail)}
