"""The graph model and all Neo4j access: driver lifecycle, schema and migrations, repositories, the managed
local Neo4j."""
