// The decisions of one digest phase over one partition, unapplied (a dry run, or a look before a pass):
// the rules are fragment DIGEST_RULES (cypher/fragments/digest_rules.cypher). digest/passes.py runs it.
{{DIGEST_RULES}}
{{LIST_DECISIONS}}
