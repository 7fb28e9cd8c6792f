// One webhook, without its secret. Params: $id
MATCH (w:Webhook {id: $id})
RETURN w {.*, secret: null} AS webhook
