// The service replicas' heartbeats (rate limits: each replica takes its share of every limit). One node a replica,
// by its id. Idempotent.
CREATE CONSTRAINT replica_id_unique IF NOT EXISTS FOR (r:Replica) REQUIRE r.id IS UNIQUE;
