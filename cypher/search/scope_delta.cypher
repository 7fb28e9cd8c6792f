// The rows of one scope written since its copy's version (service/scope_index.py, ScopeCopy.extended): every
// searchable row whose updated_at is at or after $since less $lookback seconds, oldest first, as
// search/scope_corpus.cypher returns them (fragment SCOPE_ROWS). The look-back takes in a write whose commit
// landed after a newer one although its updated_at is older (its time is taken before it runs, and a save is
// retried for up to 8 s). One range seek on the (scope_id, updated_at) index of migration 0014.
// Params: $scope_id, $model (null = no vectors), $since (a DateTime), $lookback (seconds), $chunk (rows a record)
MATCH (a:Artifact)
WHERE a.scope_id = $scope_id AND a.updated_at >= $since - duration({seconds: $lookback})
  AND a.family IN ['memory', 'knowledge', 'skill']
{{SCOPE_ROWS}}
