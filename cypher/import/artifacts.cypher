// Import: one batch of artifacts into the new scope. Labels come from the service's family → label map.
// Params: $rows: [{labels: ['Artifact', <family label>], props: {...}}]
UNWIND $rows AS row
CREATE (a:$(row.labels))
SET a = row.props
SET a.ranked = {{RANKED}}  // recomputed here, whatever the file says (fragments/ranked.cypher)
RETURN count(a) AS created
