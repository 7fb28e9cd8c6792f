// Move a webhook's cursor back (or on) to $after: the events after it are delivered again, from the next
// attempt on. Params: $id, $after, $now
// Concurrency rule (lock by write, then read; see artifact/update.cypher): the write takes the webhook's lock, so
// a delivery settling at the same time either commits before (and the replay overrides its cursor) or after
// (and its settle sees the replay and leaves the cursor alone: webhooks/settle.cypher).
MATCH (w:Webhook {id: $id})
SET w.cursor = $after, w.failures = 0, w.next_attempt_at = $now, w.last_error = null,
    w.replays = coalesce(w.replays, 0) + 1
RETURN w {.*, secret: null} AS webhook
