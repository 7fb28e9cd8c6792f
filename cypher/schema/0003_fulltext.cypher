// Full-text index over artifact text. The `cjk` analyzer indexes Chinese as bigrams and Latin text as
// words, so one index serves both. `scope_id`, `family` and `status` are indexed too (each one token) so a
// search is confined to its scope inside Lucene itself, before any limit applies: no over-fetch across
// tenants. Made eventually consistent by 0015 (its readers wait for the refresh: see that file).
CREATE FULLTEXT INDEX artifact_text IF NOT EXISTS FOR (a:Artifact) ON EACH [a.content, a.title, a.scope_id, a.family, a.status]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk', `fulltext.eventually_consistent`: false}};
