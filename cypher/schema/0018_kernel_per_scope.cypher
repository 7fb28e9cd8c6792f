// One agent kernel and one world kernel a scope, held by the database itself under either scope guard (a second
// kernel of a kind is refused at the statement that makes it, by cypher-shell and Browser too). That there is at
// least one of each is the scope-create query's (both in one transaction) and, under the trigger guard, the
// trigger's. The constraints' own indexes replace the plain ones of 0002 (same property, same seeks).
// Idempotent.
DROP INDEX agent_kernel_scope IF EXISTS;
DROP INDEX world_kernel_scope IF EXISTS;
CREATE CONSTRAINT agent_kernel_per_scope IF NOT EXISTS FOR (k:AgentKernel) REQUIRE k.scope_id IS UNIQUE;
CREATE CONSTRAINT world_kernel_per_scope IF NOT EXISTS FOR (k:WorldKernel) REQUIRE k.scope_id IS UNIQUE;
