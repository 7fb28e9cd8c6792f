// What the in-process scope index (service/search/scope_index.py) reads to know whether its copy of a scope is
// current, each an index-backed top-1 seek (O(log n), whatever the scope's size): the newest write to a
// searchable row (updated_at: saves and updates set it), the newest vector (embedded_at: set with every
// embedding) and the newest deletion (a deleted row becomes a :Tombstone with removed_at).
// Numbered after the issue that added it (14) so parallel branches do not collide on a version.
CREATE INDEX artifact_scope_updated IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.updated_at);
CREATE INDEX artifact_scope_embedded IF NOT EXISTS FOR (a:Artifact) ON (a.scope_id, a.embedded_at);
CREATE INDEX tombstone_scope_removed IF NOT EXISTS FOR (t:Tombstone) ON (t.scope_id, t.removed_at);
