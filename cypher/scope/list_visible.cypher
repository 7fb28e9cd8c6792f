// The scopes a key can see, one page in a stable order (namespace, id), after a cursor. Scopes being deleted
// are left out. Params: $all (true for a key holding every namespace), $namespaces (list of strings),
// $after_namespace, $after_id (the last row of the previous page, or null), $limit
MATCH (s:Scope)
WHERE s.deleting IS NULL
  AND ($all OR s.namespace IN $namespaces)
  AND ($after_id IS NULL OR s.namespace > $after_namespace
       OR (s.namespace = $after_namespace AND s.id > $after_id))
RETURN s {.id, .namespace, .cognitive_owner, .name, .created_at} AS scope
ORDER BY s.namespace, s.id
LIMIT $limit
