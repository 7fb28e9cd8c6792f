// kind: clauses
// Fragment SEQUENCE_STAMP: number a namespace's committed, not yet numbered events. Bound by the caller: `l` (the
// namespace's :EventLog, already locked by a write), `ns` (its namespace) and `next` (l.next read after that
// lock). Yields `stamped` (how many got a position) and leaves l.next after the last one.
// The events are taken after the lock, so two sequencers never number one event: the second sees the first's
// events without the :Unsequenced label once it has the lock. Order: the database's clock at each event's write
// (db_at), then id; a change's events are ordered after whatever committed before it began.
// The feed kind: the event's op, except a save stored pending (`quarantine`), a GC archive (`evict`),
// and a refused write (`refuse`).
// Params: $batch (most events numbered per namespace per run)
CALL (l, ns, next) {
  MATCH (e:Unsequenced {namespace: ns})
  WITH e ORDER BY e.db_at, e.id LIMIT $batch
  WITH collect(e) AS events
  UNWIND range(0, size(events) - 1) AS i
  WITH events[i] AS e, next + i AS position
  SET e.position = position,
      e.kind = CASE
        WHEN e.op = 'save' AND e.status = 'pending' THEN 'quarantine'
        WHEN e.op = 'archive' AND e.reason IN ['ttl_expired', 'capacity_eviction'] THEN 'evict'
        WHEN e.op = 'refuse_write' THEN 'refuse'
        ELSE e.op END
  REMOVE e:Unsequenced
  RETURN count(e) AS stamped
}
SET l.next = next + stamped
