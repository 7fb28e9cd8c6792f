// The namespace a webhook delivers (for the key's access check). Fixed when the webhook is registered, so the
// service caches the answer. Params: $id
MATCH (w:Webhook {id: $id})
RETURN w.namespace AS namespace
