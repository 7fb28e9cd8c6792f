// The vector index over artifact embeddings, sized to the configured embedder (created at start-up by
// service/search/embedding.ensure_vector_index, only when an embedder is configured; idempotent). Cosine, as the
// rankers use. Search itself scans one scope exactly (see service/search/ranking.py); the index serves global
// nearest-neighbour questions, e.g. in Neo4j Browser:
//   CALL db.index.vector.queryNodes('artifact_embedding', 10, $vector) YIELD node, score
// Params: $dimensions
CREATE VECTOR INDEX artifact_embedding IF NOT EXISTS
FOR (a:Artifact) ON a.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}}
