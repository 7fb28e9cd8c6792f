// The event feed (docs/events.md): one :EventLog per namespace holds the next position; events are read by
// (namespace, position); the sequencer finds a namespace's unnumbered events through :Unsequenced(namespace).
// Events written before this migration have no position and stay in the audit trail only. Idempotent.
CREATE CONSTRAINT event_log_namespace_unique IF NOT EXISTS FOR (l:EventLog) REQUIRE l.namespace IS UNIQUE;
CREATE INDEX event_feed_position IF NOT EXISTS FOR (e:Event) ON (e.namespace, e.position);
CREATE INDEX event_unsequenced IF NOT EXISTS FOR (e:Unsequenced) ON (e.namespace);
