// One digest pass over one partition: decide (fragment DIGEST_RULES, cypher/fragments/digest_rules.cypher) and write
// and apply the decisions batch by batch (fragment APPLY_DECISIONS), in one auto-commit query. digest/passes.py
// runs it once the pass holds the partition's lease.
{{DIGEST_RULES}}
{{APPLY_DECISIONS}}
