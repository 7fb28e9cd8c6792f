// A replica that stops: its heartbeat goes, so the others take its share of the rate limits at their next beat.
// Params: $id
MATCH (r:Replica {id: $id})
DELETE r
