// Webhooks (docs/events.md#webhooks): one node a registered endpoint, with its cursor in the namespace's feed;
// its delivery log as :WebhookDelivery nodes. Idempotent.
CREATE CONSTRAINT webhook_id_unique IF NOT EXISTS FOR (w:Webhook) REQUIRE w.id IS UNIQUE;
CREATE INDEX webhook_due IF NOT EXISTS FOR (w:Webhook) ON (w.next_attempt_at);
CREATE INDEX webhook_delivery_log IF NOT EXISTS FOR (d:WebhookDelivery) ON (d.webhook_id, d.at);
