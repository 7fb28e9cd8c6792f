// Ranked(a) — does a retention-ranked context arm read this artifact (context/assemble.cypher)? True for
// knowledge pages and skills, memories of kind preference (the preferences arm) and role-tier memories other than
// episodes (the profile); null otherwise. Stored as the property `ranked` (true or absent): the indexes on the
// read statistics (recall_count, accessed_at) hold only the rows that have it (schema/0024), so the recall write
// of a constraint, an episode or a search hit updates no index. It depends on family, kind and tier only: set
// where an artifact is created (artifact/save, import/artifacts) and again where its tier can change
// (artifact/update). A predicate over `a` (a node or a map).
CASE WHEN a.family IN ['knowledge', 'skill']
       OR (a.family = 'memory' AND (a.kind = 'preference' OR (a.tier = 'role' AND a.kind <> 'episodic')))
     THEN true END
