// The look-back window of one scope's copy (service/search/scope_index.py): the searchable rows whose updated_at is at or
// after $since less $lookback seconds and not after $since, by id, with their created_at and updated_at as integer
// nanoseconds since the epoch (unordered). A write takes its updated_at before it runs, and a save is retried for up
// to 8 s, so its commit can land after a newer write's: a copy made in between does not hold it although its
// updated_at is not newer than the copy's version. The copy holds nearly every row here with the same updated_at
// and passes over them; those it does not hold so it reads whole, by id (search/scope_rows.cypher). Ids and times
// only: after a batch of 100,000 saves, this read took 0.2 s where the same rows with their texts, sorted, took 0.6 s
// and, before the window was read apart, the delta reloaded the scope (3 s) on every search of the next minute.
// List comprehensions over the collected nodes keep the three lists aligned: a row deleted while this read runs
// may read as nulls, which collect() would drop from one list and not another. One range seek on the
// (scope_id, updated_at) index of migration 0014.
// Params: $scope_id, $since (a DateTime), $lookback (seconds)
MATCH (a:Artifact)
WHERE a.scope_id = $scope_id AND $since - duration({seconds: $lookback}) <= a.updated_at <= $since
  AND a.family IN ['memory', 'knowledge', 'skill']
WITH collect(a) AS rows
RETURN [a IN rows | a.id] AS id,
       [a IN rows | a.created_at.epochSeconds * 1000000000 + a.created_at.nanosecond] AS created,
       [a IN rows | a.updated_at.epochSeconds * 1000000000 + a.updated_at.nanosecond] AS updated
