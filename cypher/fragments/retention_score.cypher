// Fragment RETENTION_SCORE: RetentionScore (digest/retention.py, which documents the formula and mirrors it in
// Python) as one Cypher expression over a node `m`, with parameters $now (datetime) and $w (the weights map).
// Substituted wherever a query names {{RETENTION_SCORE}} (cypher.compose).
[r IN [{
    age_s: duration.inSeconds(coalesce(m.created_at, m.accessed_at, $now), $now).seconds,
    acc_s: duration.inSeconds(coalesce(m.accessed_at, m.created_at, $now), $now).seconds,
    rc: coalesce(m.recall_count, 0),
    t: coalesce(m.trust, 0.5)
  }] |
  [v IN [{
      recent_d: (CASE
                   WHEN r.acc_s < r.age_s THEN (CASE WHEN r.acc_s > 0 THEN r.acc_s ELSE 0 END)
                   ELSE (CASE WHEN r.age_s > 0 THEN r.age_s ELSE 0 END)
                 END) / 86400.0,
      age_d: (CASE WHEN r.age_s > 0 THEN r.age_s ELSE 0 END) / 86400.0,
      rc: CASE WHEN r.rc > 0 THEN r.rc ELSE 0 END,
      t: CASE
           WHEN r.t <> r.t THEN 0.5
           WHEN r.t < 0.0 THEN 0.0
           WHEN r.t > 1.0 THEN 1.0
           ELSE toFloat(r.t)
         END
    }] |
    [s IN [
      ($w.recall * (1.0 - exp(-toFloat(v.rc) / 5.0))
       + $w.recency * exp(-0.6931471805599453 * v.recent_d / $w.recency_half_life_days)
       + $w.age * exp(-0.6931471805599453 * v.age_d / $w.age_half_life_days)
       + $w.trust * v.t)
      / ($w.recall + $w.recency + $w.age + $w.trust)
    ] | CASE WHEN s < 0.0 THEN 0.0 WHEN s > 1.0 THEN 1.0 ELSE s END][0]
  ][0]
][0]
