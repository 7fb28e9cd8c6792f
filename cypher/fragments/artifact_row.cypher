// ArtifactRow(a): an artifact as the service reads it back — every property but the vector, its outgoing
// RELATES_TO relations, and its times (created_at, updated_at, accessed_at, occurred_at, valid_from, valid_until)
// as ISO-8601 text. The driver hydrates a Neo4j DateTime in pure Python (time-zone arithmetic, ~60 µs a value); the
// record's model (graph.model.Artifact.from_node) parses the text to the same instant. Measured at 100,000
// memories: 330 values were ~20 ms of a context call, and 30 were ~4 ms of a 26 ms explicit search.
// A map over the variable `a`. A raw row's times are text: read it through Artifact.from_node.
a {.*, embedding: null, created_at: toString(a.created_at), updated_at: toString(a.updated_at),
   accessed_at: toString(a.accessed_at), occurred_at: toString(a.occurred_at), valid_from: toString(a.valid_from),
   valid_until: toString(a.valid_until), relations: [(a)-[r:RELATES_TO]->(b) | {type: r.type, to_id: b.id}]}
