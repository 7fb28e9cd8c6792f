// (system database) Remove a before-commit trigger. Params: $db, $name
CALL apoc.trigger.drop($db, $name) YIELD name RETURN name
