"""The LoCoMo development split as the recall evaluation reads it (bench/eval_recall.py).

LoCoMo: Maharana et al., "Evaluating Very Long-Term Conversational Memory of LLM Agents", ACL 2024
(CC BY-NC 4.0). The data is never copied into this repository: it is read from `../shared/data/locomo-dev.json`
relative to the repository root, or from the file `COGNITION_EVAL_DATA` names.

Each dialog turn becomes one memory text, `"<speaker>: <text>"` plus the shared photo's caption when the
turn has one (`[photo: …]`); one conversation is one scope. A question is scorable when it is of category 1–4
and names at least one evidence turn that exists (malformed ids such as `D:11:26`, `D30:05` or `D8:6; D9:17`
are normalised to `D<session>:<turn>` first; ids naming no turn are dropped).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "locomo-dev.json"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


@dataclass(frozen=True, slots=True)
class Turn:
    dia_id: str
    session: int
    text: str          # what is saved: "<speaker>: <text> [photo: caption]"
    date_time: str     # the session's date, as the data gives it


@dataclass(frozen=True, slots=True)
class Question:
    text: str
    category: int
    evidence: frozenset[str]


@dataclass(frozen=True, slots=True)
class Conversation:
    id: str
    turns: list[Turn]
    questions: list[Question]


def session_time(text: str) -> datetime:
    """A session's date, "1:56 pm on 8 May, 2023", as a time (read as UTC: the data names no timezone)."""
    return datetime.strptime(text.replace(" on ", " "), "%I:%M %p %d %B, %Y").replace(tzinfo=UTC)


def asked_at(conv: Conversation) -> datetime:
    """When a conversation's questions are asked: the data dates none; they come after its last session."""
    return max(session_time(t.date_time) for t in conv.turns)


def data_path() -> Path:
    return Path(os.environ.get("COGNITION_EVAL_DATA") or DEFAULT_DATA)


_ID = re.compile(r"D\D*(\d+)\D+(\d+)")


def normalise_evidence(raw: str) -> list[str]:
    """`D:11:26` → D11:26, `D30:05` → D30:5, `D8:6; D9:17` → [D8:6, D9:17]."""
    out = []
    for part in re.split(r"[;,]\s*", raw):
        m = _ID.search(part.strip())
        if m:
            out.append(f"D{int(m.group(1))}:{int(m.group(2))}")
    return out


def turn_text(turn: dict[str, str]) -> str:
    text = f"{turn['speaker']}: {turn['text']}"
    caption = turn.get("blip_caption")
    return f"{text} [photo: {caption}]" if caption else text


def load(path: Path | None = None) -> list[Conversation]:
    path = path or data_path()
    if not path.exists():
        raise FileNotFoundError(f"no evaluation data at {path}: set COGNITION_EVAL_DATA to the LoCoMo dev split "
                                "(shared/data/locomo-dev.json beside the repository)")
    samples = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for i, sample in enumerate(samples):
        conv = sample["conversation"]
        sessions = sorted(int(k.split("_")[1]) for k in conv if re.fullmatch(r"session_\d+", k))
        turns = []
        for s in sessions:
            for t in conv[f"session_{s}"]:
                ids = normalise_evidence(t["dia_id"])
                turns.append(Turn(ids[0] if ids else t["dia_id"], s, turn_text(t),
                                  str(conv.get(f"session_{s}_date_time", ""))))
        known = {t.dia_id for t in turns}
        questions = []
        for qa in sample["qa"]:
            if qa.get("category") not in CATEGORIES:
                continue
            evidence = frozenset(e for raw in qa.get("evidence", []) for e in normalise_evidence(raw) if e in known)
            if evidence:
                questions.append(Question(str(qa["question"]), int(qa["category"]), evidence))
        out.append(Conversation(str(sample.get("sample_id", f"conv-{i}")), turns, questions))
    return out
