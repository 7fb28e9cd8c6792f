// The decisions of one digest phase over one partition, unapplied (a dry run, or a look before a pass):
// the rules are fragment DIGEST_RULES (cypher/fragments/digest_rules.cypher). digest/passes.py runs it.
// The rules run in a subquery that hands on only the decisions: nothing else they computed (the BFS's map of
// evidence paths, the candidate lists) travels with each decision's row.
CALL () {
{{DIGEST_RULES}}
UNWIND decisions AS d
RETURN d, size(decisions) AS total
}
{{LIST_DECISIONS}}
