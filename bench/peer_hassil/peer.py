"""The peer: every turn of a suite recognised and resolved, with what went wrong counted."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import suite

from .hassil_api import HassilApi, warn
from .home import PeerHome, intents_language
from .targets import resolve_target, target_from_result


@dataclass
class PeerStats:
    """Outcome counts of a run ("no_sentence", "no_target", "predicted", "exception", ...)."""

    outcomes: Counter[str] = field(default_factory=Counter)
    intents: Counter[str] = field(default_factory=Counter)
    exceptions: list[str] = field(default_factory=list)


class HassilPeer:
    """Home Assistant's default-agent matcher as a benchmark runner."""

    def __init__(self, api: HassilApi | None = None) -> None:
        self.api = api or HassilApi.detect()
        self._intents: dict[str, Any | None] = {}
        self._homes: dict[int, PeerHome] = {}

    def intents_for(self, language: str) -> tuple[str | None, Any | None]:
        """(intents language code, compiled hassil Intents) for a case language; cached."""
        code = intents_language(language, self.api.get_languages())
        if code is None:
            return None, None
        if code not in self._intents:
            data = self.api.get_intents(code)
            if not data:
                warn(f"home-assistant-intents has no sentences for {code!r}")
            self._intents[code] = self.api.intents_cls.from_dict(data) if data else None
        return code, self._intents[code]

    def prepare(self, home: dict[str, Any]) -> PeerHome:
        """The PeerHome for this home dict (slot lists built once, like HA's cache)."""
        key = id(home)
        if key not in self._homes:
            self._homes[key] = PeerHome.build(self.api, home)
        return self._homes[key]

    def predict(
        self,
        home: dict[str, Any],
        text: str,
        language: str,
        context_area_id: str | None = None,
        stats: PeerStats | None = None,
    ) -> list[str]:
        """Entity ids HA's default agent would act on for this utterance ([] if none).

        Loading intents and slot lists is cached; call it once beforehand to time only the
        per-utterance work.
        """
        code, intents = self.intents_for(language)
        if intents is None or code is None:
            if stats is not None:
                stats.outcomes["no_language"] += 1
            return []
        peer_home = self.prepare(home)
        area_name = peer_home.area_name(context_area_id)
        intent_context = {"area": {"value": area_name, "text": area_name}} if area_name else None
        result = self.api.recognize(
            text, intents, peer_home.slot_lists_for(self.api, text), intent_context, code
        )
        if result is None:
            if stats is not None:
                stats.outcomes["no_sentence"] += 1
            return []
        target = target_from_result(
            result, preferred_area_id=context_area_id if area_name else None
        )
        selected = resolve_target(home, target)
        if stats is not None:
            stats.intents[target.intent] += 1
            stats.outcomes["predicted" if selected else "no_target"] += 1
        return selected


def run(
    homes_dir: str | Path,
    case_files: Sequence[str | Path],
    stats: PeerStats | None = None,
) -> tuple[list[dict[str, Any]], list[suite.TurnScore]]:
    """Run the peer over the cases in `case_files` against the homes in `homes_dir`.

    Returns one prediction per turn (`{case_id, turn, selected_entity_ids, clarification,
    latency_ms}`) and their scores. Never raises on a case: failures predict an empty set and
    are counted in `stats.outcomes["exception"]`.
    """
    stats = stats if stats is not None else PeerStats()
    homes = suite.load_homes(homes_dir)
    cases = [case for path in case_files for case in suite.load_cases(path)]
    peer = HassilPeer()
    # Outside the timed region: load intents, build slot lists, and recognise one utterance per
    # (home, language) so hassil's one-off lazy set-up (~0.4 s) is not charged to a turn. HA
    # does all of this once at start-up; hassil keeps no per-text cache, so this biases nothing.
    warmed: set[tuple[str, str]] = set()
    for case in cases:
        key = (case["home_id"], case["language"])
        if case["home_id"] not in homes or key in warmed or not case["turns"]:
            continue
        warmed.add(key)
        try:
            peer.predict(homes[case["home_id"]], case["turns"][0]["text"], case["language"])
        except Exception as err:
            warn(f"could not prepare {case['home_id']}/{case['language']}: {err!r}")
    predictions: list[dict[str, Any]] = []
    for case in cases:
        home = homes.get(case["home_id"])
        for index, turn in suite.iter_turns(case):
            start = time.perf_counter()
            selected: list[str] = []
            try:
                if home is None:
                    raise KeyError(f"unknown home {case['home_id']!r}")
                selected = peer.predict(
                    home, turn["text"], case["language"], turn.get("context_area_id"), stats
                )
            except Exception as err:
                stats.outcomes["exception"] += 1
                stats.exceptions.append(f"{case['case_id']}#{index}: {err!r}")
            latency_ms = (time.perf_counter() - start) * 1000.0
            predictions.append(
                {
                    "case_id": case["case_id"],
                    "turn": index,
                    "selected_entity_ids": selected,
                    "clarification": None,
                    "latency_ms": round(latency_ms, 3),
                }
            )
    return predictions, suite.score(cases, predictions)
