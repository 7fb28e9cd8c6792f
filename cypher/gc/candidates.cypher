// The decisions of one gc phase over one partition, unapplied (a dry run, or a look before a pass):
// the rules are fragment GC_RULES (cypher/fragments/gc_rules.cypher). digest/passes.py runs it.
{{GC_RULES}}
{{LIST_DECISIONS}}
