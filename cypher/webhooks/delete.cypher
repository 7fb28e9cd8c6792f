// Delete a webhook and its delivery log. Params: $id
MATCH (w:Webhook {id: $id})
WITH w, w {.*, secret: null} AS webhook
OPTIONAL MATCH (d:WebhookDelivery {webhook_id: $id})
WITH w, webhook, collect(d) AS log
FOREACH (d IN log | DELETE d)
DELETE w
RETURN webhook
