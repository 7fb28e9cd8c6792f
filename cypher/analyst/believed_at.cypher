// Neo4j Browser (table): what one scope believed at a moment. Each memory and knowledge page the store held at
// $known_at (record time: the revision current then, the status its events had given it by then), and whether it
// held in the world at $as_of (valid time: valid_from <= $as_of < valid_until). A superseded record shows the
// revision that closed its validity once that revision is older than $known_at. Records deleted since are gone
// from the store (a delete takes the content with it) and are not listed. Times are ISO 8601 with a zone.
// :param scope_id => 'the scope id'
// :param known_at => '2024-06-01T00:00:00Z'
// :param as_of => '2024-06-01T00:00:00Z'
WITH datetime($known_at) AS k, datetime($as_of) AS t
MATCH (a:Artifact)
WHERE a.scope_id = $scope_id AND a.family IN ['memory', 'knowledge'] AND a.created_at <= k
CALL (a, k) {
  OPTIONAL MATCH (a)-[:HAS_REVISION]->(r:Revision) WHERE r.at <= k
  RETURN r ORDER BY r.revision DESC LIMIT 1
}
CALL (a, k) {
  OPTIONAL MATCH (e:Event {artifact_id: a.id})
  WHERE e.at <= k AND e.op IN ['save', 'approve', 'archive', 'restore']
  RETURN e ORDER BY e.at DESC LIMIT 1
}
WITH a, r, t, CASE e.op WHEN 'save' THEN coalesce(e.status, 'active') WHEN 'archive' THEN 'archived'
                        ELSE 'active' END AS status,
     coalesce(r.valid_from, a.valid_from) AS vf,
     CASE WHEN r.occurred_at IS NULL THEN a.valid_until ELSE r.valid_until END AS vu
RETURN a.id AS id, a.family AS family, a.kind AS kind, coalesce(r.content, a.content) AS content, status,
       r.revision AS revision, vf AS valid_from, vu AS valid_until,
       (vf IS NULL OR vf <= t) AND (vu IS NULL OR vu > t) AS held_at_as_of
ORDER BY held_at_as_of DESC, status, valid_from DESC, id
