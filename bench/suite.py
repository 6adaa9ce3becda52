"""Reading benchmark suites and scoring predictions against them.

The format is the one described in `../shared/benchmark/dev/README.md`. Every runner (ours and
the peer) writes one prediction per turn, `{case_id, turn, selected_entity_ids, clarification,
latency_ms}`, and this module scores them the same way.
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .report import percentile


def load_cases(path: str | Path) -> list[dict[str, Any]]:
    cases = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if line:
                cases.append(json.loads(line))
    return cases


def load_homes(directory: str | Path) -> dict[str, dict[str, Any]]:
    homes = {}
    for path in sorted(Path(directory).glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        homes[data.get("home_id") or path.stem] = data
    return homes


def language_group(language: str) -> str:
    """ "zh-cn", "zh-hant", "zh" all score as "zh"; other tags keep their primary subtag."""
    return (language or "unknown").split("-")[0].split("_")[0].lower()


@dataclass
class TurnScore:
    case_id: str
    turn: int
    language: str
    hit: bool
    hit_any: bool
    recall: float | None
    precision: float | None
    no_match: bool
    asked: bool
    expect_clarification: bool
    latency_ms: float
    # The case's language tag as written ("zh-HK", "pt-BR"); `language` is its primary subtag.
    tag: str = ""
    # Right up to the turn's tolerances (README "Scoring"; `score_preds.py`'s lenient rate).
    lenient: bool = False


def score_turn(
    gold_turn: dict[str, Any], pred: dict[str, Any]
) -> tuple[bool, bool, float | None, float | None, bool]:
    """hit, hit_any, recall, precision, no_match for one turn (README "Scoring")."""
    asked = bool(pred.get("clarification"))
    gold = set(gold_turn.get("gold_entity_ids") or [])
    if gold_turn.get("expect_clarification"):
        return asked, asked, (1.0 if asked else 0.0), None, False
    predicted = set() if asked else set(pred.get("selected_entity_ids") or [])
    hit = not asked and predicted == gold
    alt = gold_turn.get("alt_gold_entity_ids")
    hit_any = hit or (not asked and alt is not None and predicted == set(alt))
    recall = len(predicted & gold) / len(gold) if gold else None
    precision = len(predicted & gold) / len(predicted) if predicted else None
    return hit, hit_any, recall, precision, not predicted


def lenient_turn(gold_turn: dict[str, Any], pred: dict[str, Any], hit_any: bool) -> bool:
    """A hit, or one the turn tolerates: asking back where the turn allows it
    (`clarification_ok`: the gold is several same-named entities), or a selection that differs
    from the gold (or the alternative gold) only in `tolerated_entity_ids` (entities whose
    name carries another room's name)."""
    if hit_any:
        return True
    if gold_turn.get("expect_clarification"):
        return False
    if pred.get("clarification"):
        return bool(gold_turn.get("clarification_ok"))
    predicted = set(pred.get("selected_entity_ids") or [])
    tolerated = set(gold_turn.get("tolerated_entity_ids") or [])
    if not predicted or not tolerated:
        return False
    readings = [gold_turn.get("gold_entity_ids") or [], gold_turn.get("alt_gold_entity_ids")]
    return any(
        reading is not None and not (predicted ^ set(reading)) - tolerated for reading in readings
    )


def language_tag(language: str) -> str:
    """ "zh-cn" and "zh-CN" are one tag: primary subtag lower case, region upper case."""
    parts = (language or "unknown").replace("_", "-").split("-")
    return "-".join([parts[0].lower(), *(p.upper() if len(p) == 2 else p for p in parts[1:])])


def score(
    cases: Iterable[dict[str, Any]], predictions: Iterable[dict[str, Any]]
) -> list[TurnScore]:
    by_key = {(p["case_id"], p["turn"]): p for p in predictions}
    scores = []
    for case in cases:
        for i, turn in enumerate(case["turns"]):
            pred = by_key.get((case["case_id"], i), {})
            hit, hit_any, recall, precision, no_match = score_turn(turn, pred)
            scores.append(
                TurnScore(
                    case_id=case["case_id"],
                    turn=i,
                    language=language_group(case["language"]),
                    hit=hit,
                    hit_any=hit_any,
                    recall=recall,
                    precision=precision,
                    no_match=no_match,
                    asked=bool(pred.get("clarification")),
                    expect_clarification=bool(turn.get("expect_clarification")),
                    latency_ms=float(pred.get("latency_ms", 0.0)),
                    tag=language_tag(case["language"]),
                    lenient=lenient_turn(turn, pred, hit_any),
                )
            )
    return scores


@dataclass
class Summary:
    turns: int = 0
    accuracy: float = 0.0
    accuracy_any: float = 0.0
    lenient: float = 0.0
    recall: float = 0.0
    precision: float = 0.0
    no_match_rate: float = 0.0
    clarification_rate: float = 0.0
    wrong_clarifications: int = 0
    p50_ms: float = 0.0
    p95_ms: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


def summarize(scores: list[TurnScore]) -> Summary:
    if not scores:
        return Summary()
    recalls = [s.recall for s in scores if s.recall is not None]
    precisions = [s.precision for s in scores if s.precision is not None]
    latencies = [s.latency_ms for s in scores]
    return Summary(
        turns=len(scores),
        accuracy=sum(s.hit for s in scores) / len(scores),
        accuracy_any=sum(s.hit_any for s in scores) / len(scores),
        lenient=sum(s.lenient for s in scores) / len(scores),
        recall=statistics.fmean(recalls) if recalls else 0.0,
        precision=statistics.fmean(precisions) if precisions else 0.0,
        no_match_rate=sum(s.no_match for s in scores) / len(scores),
        clarification_rate=sum(s.asked for s in scores) / len(scores),
        wrong_clarifications=sum(s.asked and not s.expect_clarification for s in scores),
        p50_ms=percentile(latencies, 0.5),
        p95_ms=percentile(latencies, 0.95),
    )


def by_language(scores: list[TurnScore], by_tag: bool = False) -> dict[str, Summary]:
    """A summary per language ("zh-CN", "zh-HK" apart with `by_tag`, else one "zh") and "all"."""
    groups: dict[str, list[TurnScore]] = defaultdict(list)
    for s in scores:
        groups[s.tag if by_tag and s.tag else s.language].append(s)
    out = {lang: summarize(group) for lang, group in sorted(groups.items())}
    out["all"] = summarize(scores)
    return out


def format_table(summaries: dict[str, Summary], title: str = "") -> str:
    lines = []
    if title:
        lines.append(f"### {title}")
        lines.append("")
    lines.append(
        "| language | turns | exact-set accuracy | hit_any | lenient | recall | precision | "
        "no match | asked back | wrong asks | p50 ms | p95 ms |"
    )
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for lang, s in summaries.items():
        lines.append(
            f"| {lang} | {s.turns} | {s.accuracy:.3f} | {s.accuracy_any:.3f} | "
            f"{s.lenient:.3f} | {s.recall:.3f} | "
            f"{s.precision:.3f} | {s.no_match_rate:.3f} | {s.clarification_rate:.3f} | "
            f"{s.wrong_clarifications} | {s.p50_ms:.2f} | {s.p95_ms:.2f} |"
        )
    return "\n".join(lines)


def iter_turns(case: dict[str, Any]) -> Iterator[tuple[int, dict[str, Any]]]:
    yield from enumerate(case["turns"])


def write_predictions(path: str | Path, predictions: Iterable[dict[str, Any]]) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        for pred in predictions:
            fh.write(json.dumps(pred, ensure_ascii=False) + "\n")
