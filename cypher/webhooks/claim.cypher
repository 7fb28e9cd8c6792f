// A delivery worker leases the webhooks that are due: not leased (or the lease expired) and whose next attempt is
// not later than $now. Concurrency rule (lock by write, then read; see artifact/update.cypher): each is locked by a
// write (the longest due first, so none starves) and its lease read after the lock through apoc.any.properties(w),
// so of two workers only one takes a webhook. Params: $now, $until (the lease's end), $holder, $limit
// guards: w.lease_until, w.cursor, w.replays
MATCH (w:Webhook) WHERE w.next_attempt_at <= $now
WITH w ORDER BY w.next_attempt_at, w.id LIMIT $limit
SET w._lock = true
WITH w, apoc.any.properties(w) AS locked
REMOVE w._lock
WITH w, locked WHERE locked.lease_until IS NULL OR locked.lease_until < $now
SET w.lease_until = $until, w.lease_holder = $holder
RETURN locked {.*, lease_until: $until} AS webhook
