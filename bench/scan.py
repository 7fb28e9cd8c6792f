"""scan: the always-on threat scan's throughput (MB/s) over 10 KB texts of several scripts — pure Python, no
Neo4j — and the latency of a save with every gate vs the same save with `service.usecases.artifacts.screen` replaced
by a no-op *in this harness only* (production code has no bypass): a 10 KB mixed text, English and Chinese texts of
200 and 2,000 characters, and short lines (30 English, 12 Chinese characters). Target: gated ≤ 1.2× bypassed. The
learned detector's encoder is asked only where its n-gram model is unsure: the rows say how many of the measured texts
reached it, and what it costs when asked."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from unittest import mock

from bench.common import ACTOR, EN_WORDS, ZH_WORDS, Context, Row, interleaved, latency_rows, pct, progress
from cognition.schemas.records import MemoryCreate
from graph.model import Kind, Tier
from service.gates import encoder
from service.gates.normal import normalize
from service.gates.pipeline import Candidate, Hold, Thresholds, judge, screen
from service.gates.threat import scan
from service.usecases import artifacts
from service.usecases.drafts import draft_of

NAME = "scan"
MAX_RATIO = 1.2
TEXT_BYTES = 10 * 1024
FLAVOURS = ("mixed", "zh", "en", "emoji", "code")
# (flavour, characters): gated saves; the first two are short lines (20-39 characters, a CJK character counting three)
SHORT_TEXTS = (("en", 30), ("zh", 12), ("en", 200), ("zh", 200), ("en", 2000), ("zh", 2000))

EMOJI = ("👩🏽\u200d💻", "👨\u200d👩\u200d👧\u200d👦", "🏳\ufe0f\u200d🌈", "❤\ufe0f\u200d🔥",
         "🧑🏿\u200d🤝\u200d🧑🏻", "👍🏻", "🎉", "🚀", "✅", "🇨🇳", "1\ufe0f\u20e3", "☕")
CODE = (
    "def retry(fn, attempts=3):\n    for i in range(attempts):\n        try:\n            return fn()\n"
    "        except TimeoutError as exc:\n            last = exc\n    raise last\n",
    "SELECT id, name FROM users WHERE created_at > now() - interval '7 days' ORDER BY id LIMIT 50;\n",
    "const total = items.reduce((acc, x) => acc + x.price * x.qty, 0);\nconsole.log(`total=${total}`);\n",
    "kubectl -n prod rollout restart deployment/api && kubectl -n prod get pods -l app=api\n",
    "fn main() {\n    let v: Vec<u32> = (1..=10).map(|x| x * x).collect();\n    println!(\"{:?}\", v);\n}\n",
    "MATCH (a:Artifact {scope_id: $sid}) WHERE a.status = 'active' RETURN a.id, a.content LIMIT 10\n",
)


def _piece(rnd: random.Random, flavour: str) -> str:
    if flavour == "mixed":
        flavour = rnd.choice(FLAVOURS[1:])
    if flavour == "zh":
        words = [rnd.choice(ZH_WORDS) for _ in range(rnd.randint(6, 18))]
        return "".join(words) + rnd.choice("。，；！？") + "\n"
    if flavour == "en":
        words = [rnd.choice(EN_WORDS) for _ in range(rnd.randint(8, 20))]
        return " ".join(words).capitalize() + rnd.choice(".!?;") + " "
    if flavour == "emoji":
        return f"{rnd.choice(ZH_WORDS)} {rnd.choice(EMOJI)} {rnd.choice(EN_WORDS)} {rnd.choice(EMOJI)} "
    return "```\n" + rnd.choice(CODE) + "```\n"


def texts(flavour: str, count: int, seed: int = 42, chars: int | None = None) -> list[str]:
    """`count` texts of ~10 KB (UTF-8) each — or of exactly `chars` characters — deterministic, every one clean for
    the scan (checked)."""
    rnd = random.Random(seed)
    out = []
    for _ in range(count):
        parts: list[str] = []
        size = 0
        while size < (TEXT_BYTES if chars is None else chars):
            p = _piece(rnd, flavour)
            parts.append(p)
            size += len(p.encode()) if chars is None else len(p)
        text = "".join(parts) if chars is None else "".join(parts)[:chars]
        hit = scan(text)
        if hit is not None:  # a refused text would end the scan early and flatter the figure
            raise RuntimeError(f"bench text ({flavour}) trips {hit.rule_id} at {hit.offset}: "
                               f"{text[max(0, hit.offset - 40):hit.offset + 40]!r}")
        out.append(text)
    return out


def scan_rows(count: int) -> list[Row]:
    rows = []
    for flavour in FLAVOURS:
        batch = texts(flavour, count)
        for t in batch[: max(3, count // 10)]:  # warm-up
            scan(t)
        per: list[int] = []
        for t in batch:
            t0 = time.perf_counter_ns()
            scan(t)
            per.append(time.perf_counter_ns() - t0)
        mb = sum(len(t.encode()) for t in batch) / 1e6
        rows.append(Row(NAME, f"threat scan {flavour} 10KB (n={count}) MB/s", mb / (sum(per) / 1e9), None,
                        "MB/s"))
        if flavour == "mixed":
            rows += [Row(NAME, f"threat scan mixed 10KB per text p{int(p * 100)}", pct(per, p), None, "ms")
                     for p in (0.5, 0.95)]
    return rows


def _no_screen(candidates: Sequence[Candidate], limits: Thresholds) -> dict[int, Hold]:
    return {}  # what screen() answers when every gate passes and the learned detector holds nothing


async def run(ctx: Context) -> list[Row]:
    n = ctx.sizes.scan_texts
    progress(f"{NAME}: threat scan over {n} x 10 KB texts per flavour")
    rows = scan_rows(n)

    scope_id = await ctx.new_scope(NAME)
    g = ctx.sizes.gated
    warm = max(10, g // 10)
    rows += await _gated_saves(ctx, scope_id, "save 10KB", texts("mixed", warm + g, seed=7), warm)
    for flavour, chars in SHORT_TEXTS:
        batch = texts(flavour, warm + g, seed=11, chars=chars)
        label = f"save {flavour} {chars} chars"
        rows += await _gated_saves(ctx, scope_id, label, batch, warm)
        rows += _encoder_rows(label, batch[warm:], ctx.rt.thresholds)
    return rows


def _encoder_rows(label: str, batch: list[str], limits: Thresholds) -> list[Row]:
    """How many of the measured texts the encoder read, and its cost per text when asked (p50)."""
    asked = sum(judge(t, normalize(t), limits).layer == "encoder" for t in batch)
    per = []
    for t in batch[: max(10, len(batch) // 10)]:
        t0 = time.perf_counter_ns()
        encoder.score(t)
        per.append(time.perf_counter_ns() - t0)
    return [Row(NAME, f"{label}: texts the encoder read (of {len(batch)})", asked, None, "texts"),
            Row(NAME, f"{label}: encoder per text when asked p50", pct(per, 0.5), None, "ms")]


async def _gated_saves(ctx: Context, scope_id: str, label: str, contents: list[str], warm: int) -> list[Row]:
    """Saves of `contents[warm:]`, every gate vs `screen` bypassed, interleaved (after `warm` of each)."""
    g = len(contents) - warm
    rnd = random.Random(42)
    bodies = [MemoryCreate(kind=rnd.choice(list(Kind)), tier=Tier.agent, content=t,
                           tags=rnd.sample(EN_WORDS[:60], 2), subject=None) for t in contents]

    async def gated(i: int) -> None:
        await artifacts.save(ctx.rt, scope_id, [draft_of(bodies[i])], actor=ACTOR)

    async def bypassed(i: int) -> None:
        # Harness-only monkeypatch of the name save() calls; undone as soon as this save returns.
        with mock.patch.object(artifacts, "screen", _no_screen):
            await artifacts.save(ctx.rt, scope_id, [draft_of(bodies[i])], actor=ACTOR)

    progress(f"{NAME}: warm-up {warm} + {g} saves ({label}), gated vs bypassed")
    await interleaved(warm, gated, bypassed)
    gated_ns, bypassed_ns = await interleaved(g, gated, bypassed, start=warm)
    rows = latency_rows(NAME, f"{label} gated vs bypassed", gated_ns, bypassed_ns, MAX_RATIO, raw_label="bypassed")
    screen_ns = []
    for b in bodies[warm:]:
        t0 = time.perf_counter_ns()
        screen([artifacts.candidate(draft_of(b))], ctx.rt.thresholds)
        screen_ns.append(time.perf_counter_ns() - t0)
    rows += [Row(NAME, f"screen() alone per {label[5:]} save p{int(p * 100)}", pct(screen_ns, p), None, "ms")
             for p in (0.5, 0.95)]
    return rows
