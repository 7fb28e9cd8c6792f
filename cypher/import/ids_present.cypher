// Import with kept ids: which of $ids already name a scope, an artifact or a tombstone (refused if any).
// Params: $ids
UNWIND $ids AS id
CALL (id) {
  MATCH (s:Scope {id: id}) RETURN s.id AS hit
  UNION
  MATCH (a:Artifact {id: id}) RETURN a.id AS hit
  UNION
  MATCH (t:Tombstone {id: id}) RETURN t.id AS hit
}
RETURN collect(DISTINCT hit)[..20] AS present
