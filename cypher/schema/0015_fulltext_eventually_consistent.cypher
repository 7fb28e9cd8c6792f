// The full-text index becomes eventually consistent: a save at the speed of a commit.
// A synchronous full-text index refreshes its Lucene searcher inside every committing transaction: measured,
// that was most of a single save's commit (docs/benchmarks.md). Eventually consistent, the
// index is brought up to date right after the commit, off the write path.
// What reads it: only the Lucene branch of cypher/fragments/hybrid_rank.cypher (searches with the scope index
// off); that branch first calls db.index.fulltext.awaitEventuallyConsistentIndexRefresh(), so a search still
// sees every save committed before it — the wait moved from each write to the (rare) Lucene read. Default
// search and context rank through the in-process scope index, read from range indexes, which stay synchronous.
// Re-running it (`cognition schema --rerun`) rebuilds the index; apply_schema waits until it is online.
DROP INDEX artifact_text IF EXISTS;
CREATE FULLTEXT INDEX artifact_text IF NOT EXISTS FOR (a:Artifact) ON EACH [a.content, a.title, a.scope_id, a.family, a.status]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk', `fulltext.eventually_consistent`: true}};
