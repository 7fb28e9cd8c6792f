// The webhooks of the namespaces a key holds (all when $namespaces is null), oldest first. Never a secret.
// Params: $namespaces
MATCH (w:Webhook) WHERE $namespaces IS NULL OR w.namespace IN $namespaces
RETURN w {.*, secret: null} AS webhook ORDER BY w.created_at, w.id
