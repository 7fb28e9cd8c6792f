// A caller's key on a record (the LangGraph store's key, `PUT /v1/scopes/{id}/memories-by-key?key=`): one live
// record per (scope, key), held by the database itself. A put that races another put of the same key and tries to
// create a second record is refused at its CREATE (the index entry is locked until the first commits), and the
// service turns it into a new revision of the first. A tombstone keeps no key (artifact/delete.cypher replaces its
// properties), so a key can be used again after a delete. Composite property uniqueness is a Community constraint;
// its index also serves the look-up by key. Idempotent.
CREATE CONSTRAINT artifact_key_unique IF NOT EXISTS FOR (a:Artifact) REQUIRE (a.scope_id, a.key) IS UNIQUE;
