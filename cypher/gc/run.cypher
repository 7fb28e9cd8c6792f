// One gc pass over one partition: decide (fragment GC_RULES, cypher/fragments/gc_rules.cypher) and write
// and apply the decisions batch by batch (fragment APPLY_DECISIONS), in one auto-commit query. digest/passes.py
// runs it once the pass holds the partition's lease.
// The rules run in a subquery that hands on only the decisions: nothing else they computed (the BFS's map of
// evidence paths, the candidate lists) travels with each decision's row.
CALL () {
{{GC_RULES}}
UNWIND decisions AS d
RETURN d, size(decisions) AS total
}
{{APPLY_DECISIONS}}
