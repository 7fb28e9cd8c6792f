// First step of a scope delete: hide the scope from every read and write. Idempotent, so re-running an
// interrupted delete finishes it. Params: $id
MATCH (s:Scope {id: $id})
SET s.deleting = true
RETURN s.id AS id
