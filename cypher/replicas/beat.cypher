// A service replica's heartbeat (rate limits, service/usecases/limits.py): this replica is alive at $now. Answers
// how many replicas beat within the last $live_s seconds (each replica takes that share of every limit), and
// forgets replicas silent for ten times as long. Params: $id, $now (datetime), $live_s (seconds)
MERGE (r:Replica {id: $id})
SET r.seen_at = $now
WITH $now - duration({seconds: $live_s}) AS live_since, $now - duration({seconds: 10 * $live_s}) AS gone_before
CALL (gone_before) {
  MATCH (g:Replica) WHERE g.seen_at < gone_before
  DELETE g
}
MATCH (o:Replica) WHERE o.seen_at >= live_since
RETURN count(o) AS live
