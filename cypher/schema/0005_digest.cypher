// Digest and GC bookkeeping: one lease per partition, passes, decisions.
CREATE CONSTRAINT partition_lease_unique IF NOT EXISTS FOR (l:PartitionLease) REQUIRE l.id IS UNIQUE;
CREATE CONSTRAINT decision_id_unique IF NOT EXISTS FOR (d:Decision) REQUIRE d.id IS UNIQUE;
CREATE INDEX digest_pass_partition IF NOT EXISTS FOR (p:DigestPass) ON (p.namespace, p.cognitive_owner);
CREATE INDEX decision_scope IF NOT EXISTS FOR (d:Decision) ON (d.scope_id);
CREATE INDEX artifact_negating IF NOT EXISTS FOR (a:Artifact) ON (a.negating);
