// Range indexes behind the scope / family / status / tier / kind filters, the kernel-cardinality check
// and the audit trail look-ups.
CREATE INDEX artifact_scope IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id);
CREATE INDEX artifact_scope_family_status IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.family, a.status);
CREATE INDEX artifact_scope_created IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.created_at);
CREATE INDEX artifact_kind IF NOT EXISTS FOR (a:Artifact) ON (a.kind);
CREATE INDEX artifact_tier IF NOT EXISTS FOR (a:Artifact) ON (a.tier);
CREATE INDEX artifact_status IF NOT EXISTS FOR (a:Artifact) ON (a.status);
CREATE INDEX artifact_subject IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.subject);
CREATE INDEX agent_kernel_scope IF NOT EXISTS FOR (k:AgentKernel) ON (k.scope_id);
CREATE INDEX world_kernel_scope IF NOT EXISTS FOR (k:WorldKernel) ON (k.scope_id);
CREATE INDEX tombstone_scope IF NOT EXISTS FOR (t:Tombstone) ON (t.scope_id);
CREATE INDEX scope_partition IF NOT EXISTS FOR (s:Scope) ON (s.namespace, s.cognitive_owner);
CREATE INDEX event_artifact IF NOT EXISTS FOR (e:Event) ON (e.artifact_id);
CREATE INDEX event_scope IF NOT EXISTS FOR (e:Event) ON (e.scope_id);
CREATE INDEX event_idempotency IF NOT EXISTS FOR (e:Event) ON (e.idempotency_key);
CREATE INDEX revision_artifact IF NOT EXISTS FOR (r:Revision) ON (r.artifact_id, r.revision);
