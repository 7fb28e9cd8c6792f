// The feed's sequencer: give the committed events of each namespace that have no position yet (:Unsequenced)
// the next positions of that namespace, in one transaction per run. Every replica runs it in the background.
// Positions are given only to committed events, under the namespace's :EventLog lock, so the positions a reader
// can see are always 1..n with no gap: a consumer at cursor n never later finds an event below n
// (docs/decisions/0017-event-positions-after-commit.md). Namespaces are locked in name order (no deadlock
// between two sequencers). Params: $namespaces (names to sequence, or null: every namespace with unnumbered
// events), $batch (most events per namespace per run)
// Concurrency rule (lock by write, then read; see artifact/update.cypher): `SET l._lock` takes the log's write
// lock and `next` is read after it through apoc.any.properties(l).
// guards: l.next
CALL () {
  MATCH (e:Unsequenced) WHERE $namespaces IS NULL AND e.namespace IS NOT NULL
  RETURN DISTINCT e.namespace AS ns
  UNION
  UNWIND coalesce($namespaces, []) AS ns
  RETURN ns
}
WITH ns ORDER BY ns
MERGE (l:EventLog {namespace: ns})
SET l._lock = true
WITH l, ns, apoc.any.properties(l) AS locked
REMOVE l._lock
WITH l, ns, coalesce(locked.next, 1) AS next
{{SEQUENCE_STAMP}}
RETURN ns AS namespace, stamped, next + stamped - 1 AS last
