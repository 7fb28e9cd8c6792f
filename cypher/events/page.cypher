// A page of one namespace's event feed: the events after position $after, in position order. The namespace is
// sequenced first, in the same transaction and under its :EventLog lock (fragment SEQUENCE_STAMP), so a read
// sees every event committed before it and the page is read after the last numbering of the namespace
// committed: positions 1..last are all there. Only ids and metadata are answered, never content.
// Params: $namespace, $after (a position, 0 for the start), $limit, $batch
// Concurrency rule (lock by write, then read; see artifact/update.cypher): `SET l._lock` takes the log's write
// lock and `next` is read after it through apoc.any.properties(l).
// guards: l.next
MERGE (l:EventLog {namespace: $namespace})
SET l._lock = true
WITH l, apoc.any.properties(l) AS locked
REMOVE l._lock
WITH l, $namespace AS ns, coalesce(locked.next, 1) AS next
{{SEQUENCE_STAMP}}
WITH next + stamped - 1 AS last
CALL (last) {
  MATCH (e:Event {namespace: $namespace}) WHERE e.position > $after AND e.position <= last
  WITH e ORDER BY e.position LIMIT $limit
  // An allow-list: ids and metadata only. A refused write's event gives its rule and its content's hash; free
  // text a caller gave (a delete's or an approval's reason, a write policy) stays in the audit trail.
  RETURN collect(e {.id, .position, .kind, .op, .namespace, .scope_id, record_id: e.artifact_id, .family,
                    .revision, .status, .actor, .at, .hold_reason, .pass_id, superseded_by: e.by, .code,
                    .content_sha256, rule: CASE WHEN e.op IN ['archive', 'remove'] THEN e.reason ELSE e.rule END
                   }) AS events
}
RETURN last, events
