// The live record a caller's key names in a scope (or none): its id, revision and status, as committed when read.
// Not a recall and takes no lock: a keyed put acts on the answer with a query that checks it again under the
// record's lock (artifact/update.cypher compares the revision; artifact/save.cypher's CREATE meets the
// artifact_key_unique constraint when another put created the key first).
// Params: $scope_id, $key, $families
OPTIONAL MATCH (a:Artifact {scope_id: $scope_id, key: $key}) WHERE a.family IN $families
RETURN a.id AS id, a.revision AS revision, a.status AS status
