// A pass and its decisions (what it decided, about what, citing what). Params: $pass_id
MATCH (p:DigestPass {id: $pass_id})
RETURN p {.*} AS pass,
       COLLECT {
         MATCH (p)-[:DECIDED]->(d:Decision)-[:ABOUT]->(a)
         RETURN d {.id, .action, .rule, .rules, .path, .at, artifact_id: a.id, scope_id: a.scope_id,
                   cites: [(d)-[:CITES]->(e) | e.id]}
         ORDER BY d.id
       } AS decisions
