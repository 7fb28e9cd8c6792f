// The vector index over artifact embeddings, if it exists, with its size. Params: $name
SHOW VECTOR INDEXES YIELD name, options
WHERE name = $name
RETURN name, options.indexConfig.`vector.dimensions` AS dimensions
