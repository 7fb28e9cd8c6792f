// kind: clauses
// Fragment STATE_AT: the artifact `a` as the store held it at $known_at (record time, docs/time.md), bound as
// `state` (null when it did not exist yet). The revision current then (the last written by $known_at) gives its
// fields — content, titles, tags, subject, trust, metadata, occurred_at, valid time, the conflicted flag, an
// operator's approval (fragment REVISION_STATE); a revision written before revisions kept that state holds only the
// content, and the other fields are read as they are now. Its events by then give its status (save, approve,
// archive, restore), the stale flag (stale, fresh) and a later approval. Read statistics (recall_count,
// accessed_at) are not versioned: they are read as they are now, accessed_at no later than $known_at. Tombstones
// are not artifacts: a record deleted, removed or rejected since is erased (its content is gone with it), and
// the queries that need to say so read the tombstone itself.
// Bound by the caller: `a`. Params: $known_at
CALL (a) {
  OPTIONAL MATCH (a)-[:HAS_REVISION]->(r:Revision) WHERE r.at <= $known_at
  WITH r ORDER BY r.revision DESC LIMIT 1
  RETURN r AS rev
}
CALL (a, rev) {
  OPTIONAL MATCH (e:Event {artifact_id: a.id})
  WHERE e.at <= $known_at AND e.scope_id = a.scope_id
    AND e.op IN ['save', 'approve', 'archive', 'restore', 'stale', 'fresh']
  WITH e ORDER BY e.at
  WITH collect(e) AS es
  RETURN reduce(st = 'active', e IN es | CASE e.op WHEN 'save' THEN coalesce(e.status, 'active')
                                                   WHEN 'approve' THEN 'active' WHEN 'archive' THEN 'archived'
                                                   WHEN 'restore' THEN 'active' ELSE st END) AS status,
         reduce(f = false, e IN es | CASE e.op WHEN 'stale' THEN true WHEN 'fresh' THEN false ELSE f END) AS stale,
         [e IN es WHERE e.op = 'approve' AND (rev IS NULL OR e.at >= rev.at)] AS approvals,
         [e IN es WHERE e.op IN ['approve', 'restore'] | e.at] AS touched
}
WITH a, rev, status, stale, approvals, touched, rev IS NOT NULL AND rev.occurred_at IS NOT NULL AS full
WITH a, CASE WHEN a.created_at <= $known_at THEN apoc.map.merge(
       a {.*, embedding: null, relations: [(a)-[x:RELATES_TO]->(b) | {type: x.type, to_id: b.id}]},
       apoc.map.merge(
         CASE WHEN full THEN rev {.content, .content_hash, .title, .name, .when_to_use, .steps, .tags, .subject,
                                  .trust, .metadata, .occurred_at, .valid_from, .valid_until,
                                  conflicted: coalesce(rev.conflicted, false), approved_by: rev.approved_by}
              WHEN rev IS NOT NULL THEN rev {.content, .content_hash}
              ELSE {} END,
         {status: status, stale: stale, revision: coalesce(rev.revision, 1),
          approved_by: CASE WHEN size(approvals) > 0 THEN last(approvals).actor
                            WHEN full THEN rev.approved_by ELSE a.approved_by END,
          updated_at: reduce(t = coalesce(rev.at, a.created_at), x IN touched | CASE WHEN x > t THEN x ELSE t END),
          accessed_at: CASE WHEN a.accessed_at > $known_at THEN $known_at ELSE a.accessed_at END}))
     END AS state
