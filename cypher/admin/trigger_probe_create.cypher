// A scope without kernels: refused (kernel_cardinality) once the invariant trigger is live. Params: $id
CREATE (:Scope {id: $id})
