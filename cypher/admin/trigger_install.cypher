// (system database) Install or replace a before-commit trigger. Params: $db, $name, $stmt
CALL apoc.trigger.install($db, $name, $stmt, {phase: 'before'})
