// (system database) The triggers installed for a database. Params: $db
CALL apoc.trigger.show($db) YIELD name, query RETURN name, query
