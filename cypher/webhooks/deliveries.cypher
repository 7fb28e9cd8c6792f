// A webhook's delivery log, newest first. Params: $id, $limit
MATCH (d:WebhookDelivery {webhook_id: $id})
WITH d ORDER BY d.at DESC LIMIT $limit
RETURN d {.*} AS delivery
