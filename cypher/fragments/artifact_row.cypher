// ArtifactRow(a): an artifact as the service reads it back — every property but the vector, its outgoing
// RELATES_TO relations, and its times (created_at, updated_at, accessed_at, occurred_at, valid_from, valid_until)
// as ISO-8601 text. The driver hydrates a Neo4j DateTime in pure Python (time-zone arithmetic, ~60 µs a value); the
// record's model (graph.model.Artifact.from_node) parses the text to the same instant. Measured at 100,000
// memories: 330 values were ~20 ms of a context call, and 30 were ~4 ms of a 26 ms explicit search.
// The properties are read once, as a map (`properties(a)`), and the row projected from that map: projecting the
// node itself (`a {.*, created_at: toString(a.created_at), …}`) reads the node's properties again for each one
// named. PROFILE of a context call's 73 rows at 100,000 memories: 4,698 db hits that way, 2,359 this way.
// An expression over the variable `a` (null when `a` is). A raw row's times are text: read it through
// Artifact.from_node.
[ap IN [properties(a)] |
 ap {.*, embedding: null, created_at: toString(ap.created_at), updated_at: toString(ap.updated_at),
     accessed_at: toString(ap.accessed_at), occurred_at: toString(ap.occurred_at),
     valid_from: toString(ap.valid_from), valid_until: toString(ap.valid_until),
     relations: [(a)-[r:RELATES_TO]->(b) | {type: r.type, to_id: b.id}]}][0]
