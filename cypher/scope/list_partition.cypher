// The scopes of one partition (namespace, cognitive_owner) whose name starts with $name_prefix, one page in name
// order after $after_name (the last name of the page before, or null). Scopes being deleted are left out. Each
// says whether it holds a keyed record that is active or pending (what the LangGraph store's get answers), read
// from the artifact_key_unique index. Params: $namespace, $owner, $name_prefix, $after_name, $limit
MATCH (s:Scope {namespace: $namespace, cognitive_owner: $owner})
WHERE s.name STARTS WITH $name_prefix AND ($after_name IS NULL OR s.name > $after_name) AND s.deleting IS NULL
RETURN s {.id, .namespace, .cognitive_owner, .name, .created_at,
          keyed: EXISTS { MATCH (a:Artifact) WHERE a.scope_id = s.id AND a.key IS NOT NULL
                                                   AND a.status IN ['active', 'pending'] }} AS scope
ORDER BY s.name
LIMIT $limit
