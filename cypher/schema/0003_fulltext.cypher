// Full-text index over artifact text. The `cjk` analyzer indexes Chinese as bigrams and Latin text as
// words, so one index serves both. Not eventually consistent: a saved row is searchable on commit.
CREATE FULLTEXT INDEX artifact_text IF NOT EXISTS FOR (a:Artifact) ON EACH [a.content, a.title]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk', `fulltext.eventually_consistent`: false}};
