// One digest pass over one partition: decide (fragment DIGEST_RULES, cypher/fragments/digest_rules.cypher) and write
// and apply the decisions batch by batch (fragment APPLY_DECISIONS), in one auto-commit query. digest/passes.py
// runs it once the pass holds the partition's lease.
// Concurrency rule: fragment APPLY_DECISIONS locks each decided node by a write and re-reads its status after
// the lock (a concurrent restore, approve or delete voids the decision).
// guards: x.status
{{DIGEST_RULES}}
{{APPLY_DECISIONS}}
