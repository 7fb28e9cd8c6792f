// After a delivery round: its attempts go to the delivery log, the cursor moves to the last event delivered (or
// scanned past by the kind filter), the failure count and next attempt are set, and the lease is released.
// Only while the lease is still the caller's and no replay moved the cursor since the claim: otherwise only the
// log is written. Params: $id, $holder, $replays (as claimed), $cursor (position or null: unchanged), $failures,
// $next_attempt_at, $last_error, $log: [{id, at, status, ok, error, attempt, first, last, events}]
// Concurrency rule (lock by write, then read; see artifact/update.cypher): the holder and the replay count are
// read after the webhook's write lock, so a replay committed meanwhile is never overwritten.
// guards: w.lease_holder, w.replays
MATCH (w:Webhook {id: $id})
SET w._lock = true
WITH w, apoc.any.properties(w) AS locked
REMOVE w._lock
WITH w, locked.lease_holder = $holder AND coalesce(locked.replays, 0) = $replays AS mine
CALL (w, mine) {
  WITH w WHERE mine
  SET w.cursor = coalesce($cursor, w.cursor), w.failures = $failures, w.next_attempt_at = $next_attempt_at,
      w.last_error = $last_error, w.lease_until = null, w.lease_holder = null
}
CALL (w, mine) {
  WITH w WHERE NOT mine
  SET w.lease_until = CASE WHEN w.lease_holder = $holder THEN null ELSE w.lease_until END
}
FOREACH (d IN $log | CREATE (:WebhookDelivery {id: d.id, webhook_id: $id, at: d.at, status: d.status, ok: d.ok,
                                                error: d.error, attempt: d.attempt, first: d.first, last: d.last,
                                                events: d.events}))
RETURN mine
