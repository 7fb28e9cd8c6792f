// Register a webhook for a namespace. Its cursor starts at $after (a position), or when null after the last
// event committed before it: the namespace is sequenced first (fragment SEQUENCE_STAMP), so the webhook delivers
// exactly what happens from now on. Params: $id, $namespace, $url, $kinds (list or null), $secret, $after, $now,
// $actor, $batch
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
CREATE (w:Webhook {id: $id, namespace: $namespace, url: $url, kinds: $kinds, secret: $secret,
                   cursor: coalesce($after, last), created_at: $now, created_by: $actor, failures: 0,
                   next_attempt_at: $now})
RETURN w {.*, secret: null} AS webhook
