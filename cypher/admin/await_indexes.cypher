// Wait for every index to come online (after schema changes). No params.
CALL db.awaitIndexes(300)
