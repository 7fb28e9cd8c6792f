"""RetentionScore: how much a memory deserves to survive pruning, in [0, 1].

Formula (w = RetentionWeights, all times in whole seconds, days = s / 86400)::

    age_s    = max(now - created_at, 0)                    # future created_at -> 0
    recent_s = max(min(now - accessed_at, now - created_at), 0)
               # i.e. accessed_at is floored at created_at, then clamped to now
    recall   = 1 - exp(-max(recall_count, 0) / 5)          # saturating, monotone
    recency  = exp(-ln2 * (recent_s / 86400) / w.recency_half_life_days)
    age      = exp(-ln2 * (age_s / 86400) / w.age_half_life_days)
    trust    = clamp(trust, 0, 1)                          # NaN -> 0.5 ("unknown")
    score    = clamp((w.recall*recall + w.recency*recency + w.age*age
                      + w.trust*trust) / (w.recall + w.recency + w.age + w.trust), 0, 1)

``exp(-ln2 * d / h)`` is ``0.5 ** (d / h)``, a half-life decay, written with
exp() so the Python and Cypher versions take the same floating-point steps.

Why the age term favours *newer* memories: a freshly written memory has had
no chance to be recalled yet, so its recall term is 0; the age term gives
it a grace bonus that decays (half-life 90 days) so pruning does not evict
it before it could prove useful. Old memories survive through recalls,
recent access and trust instead. Consequence: with everything else fixed,
an older created_at never raises the score (except through the accessed_at
floor, which can only move access later).

Whole seconds: differences are floored to whole seconds (sub-second parts
dropped), matching ``duration.inSeconds(a, b).seconds`` in Neo4j, so both
implementations agree. All datetimes must be either timezone-aware (as
Neo4j DateTime values are) or all naive; mixing raises TypeError.

The weights are normalised by their sum, so any non-negative weights keep
the score in [0, 1]; the defaults already sum to 1.

``RETENTION_SCORE_CYPHER`` is the same computation as a Cypher expression
(not a clause), for e.g. ``RETURN m, <expr> AS score`` or
``WITH m, <expr> AS score ORDER BY score``. It reads node ``m``
(recall_count, accessed_at, created_at, trust) and parameters ``$now``
(DateTime) and ``$w`` (map from ``weights_param``). Local values are bound
with the single-element list idiom ``[x IN [value] | ...][0]`` because a
plain expression cannot use WITH. Null handling, Cypher only: trust -> 0.5,
recall_count -> 0, accessed_at -> created_at, created_at -> accessed_at,
then $now. It has not been run against Neo4j in this module's tests.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from datetime import datetime, timedelta

import cypher

__all__ = [
    "RECALL_SATURATION",
    "RETENTION_SCORE_CYPHER",
    "RetentionWeights",
    "retention_score",
    "weights_param",
]

# recall term reaches 1 - 1/e (~0.63) at 5 recalls and ~0.86 at 10.
RECALL_SATURATION = 5.0
_LN2 = 0.6931471805599453  # math.log(2); written out so Cypher uses the same literal
_SECONDS_PER_DAY = 86400.0
_UNKNOWN_TRUST = 0.5


@dataclass(frozen=True, slots=True)
class RetentionWeights:
    recall: float = 0.45
    recency: float = 0.30
    age: float = 0.10
    trust: float = 0.15
    recency_half_life_days: float = 7.0
    age_half_life_days: float = 90.0

    def __post_init__(self) -> None:
        # Negative weights would break monotonicity; zero half-lives divide by 0.
        terms = (self.recall, self.recency, self.age, self.trust)
        if not all(math.isfinite(t) and t >= 0 for t in terms) or sum(terms) <= 0:
            raise ValueError("weights must be finite, non-negative and not all zero")
        for h in (self.recency_half_life_days, self.age_half_life_days):
            if not (math.isfinite(h) and h > 0):
                raise ValueError("half-lives must be finite and positive")


_DEFAULT_WEIGHTS = RetentionWeights()


def weights_param(w: RetentionWeights) -> dict[str, float]:
    """The ``$w`` map parameter for RETENTION_SCORE_CYPHER."""
    return {f.name: float(getattr(w, f.name)) for f in fields(w)}


def _whole_seconds(delta: timedelta) -> int:
    # timedelta keeps 0 <= seconds < 86400, so this floors like Neo4j's .seconds.
    return delta.days * 86400 + delta.seconds


def _clamp01(x: float) -> float:
    return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x


def retention_score(
    *,
    recall_count: int,
    accessed_at: datetime,
    created_at: datetime,
    trust: float,
    now: datetime,
    weights: RetentionWeights = _DEFAULT_WEIGHTS,
) -> float:
    """Retention score in [0, 1]; higher means keep. See the module docstring."""
    w = weights
    age_s = _whole_seconds(now - created_at)
    acc_s = _whole_seconds(now - accessed_at)
    # min(): access before creation counts as access at creation.
    recent_s = acc_s if acc_s < age_s else age_s
    recent_s = recent_s if recent_s > 0 else 0  # future -> now
    age_s = age_s if age_s > 0 else 0

    rc = recall_count if recall_count > 0 else 0
    recall = 1.0 - math.exp(-float(rc) / RECALL_SATURATION)
    recency = math.exp(-_LN2 * (recent_s / _SECONDS_PER_DAY) / w.recency_half_life_days)
    age = math.exp(-_LN2 * (age_s / _SECONDS_PER_DAY) / w.age_half_life_days)
    t = _UNKNOWN_TRUST if math.isnan(trust) else _clamp01(float(trust))

    total = w.recall + w.recency + w.age + w.trust
    score = (w.recall * recall + w.recency * recency + w.age * age + w.trust * t) / total
    return _clamp01(score)


# The Cypher form lives in cypher/fragments/retention_score.cypher (queries name it as {{RETENTION_SCORE}},
# cypher.compose). Same steps, same order as retention_score; the constants above are written out there as the
# same literals. Scalar max/min are CASE expressions (max()/min() aggregate in Cypher); `t <> t` is the NaN test.
RETENTION_SCORE_CYPHER: str = "\n".join(
    line for line in cypher.load("fragments/retention_score").splitlines() if not line.lstrip().startswith("//")
).strip()
