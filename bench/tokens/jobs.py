"""The homes measured (synthetic, the dev split's, the dev homes padded to a size), each in a
child process with a Home Assistant of its own."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..suite import load_cases, load_homes
from ..synthetic import make_cases, make_home
from .measure import ASSIST_EVERY, HomeRun, TokenCounter, TurnRecord, async_measure_home

ROOT = Path(__file__).resolve().parents[2]
DEV_DIR = ROOT.parent / "shared" / "benchmark" / "dev"
Job = tuple[dict[str, Any], list[dict[str, Any]], str]  # home, its cases, "synthetic" / "dev"


def run_home(
    home: dict[str, Any],
    cases: list[dict[str, Any]],
    counter: TokenCounter,
    group: str,
    assist_every: int = ASSIST_EVERY,
) -> HomeRun:
    """One home in a child process with a Home Assistant of its own (`bench.hass_core`)."""
    with tempfile.TemporaryDirectory(prefix="bench-tokens-") as tmp:
        job, out = Path(tmp) / "job.json", Path(tmp) / "run.json"
        job.write_text(
            json.dumps(
                {
                    "home": home,
                    "cases": cases,
                    "group": group,
                    "assist_every": assist_every,
                    "bpe": counter.bpe_name is not None,
                }
            ),
            encoding="utf-8",
        )
        done = subprocess.run(
            [sys.executable, "-m", "bench.tokens", "--child", str(job), str(out)],
            cwd=ROOT,
            check=False,
        )
        if done.returncode != 0 or not out.exists():
            raise RuntimeError(
                f"the child process for home {home.get('home_id')} failed "
                f"(exit code {done.returncode})"
            )
        return run_from_dict(json.loads(out.read_text(encoding="utf-8")))


def run_from_dict(data: dict[str, Any]) -> HomeRun:
    turns = [TurnRecord(**turn) for turn in data.pop("turns")]
    return HomeRun(**{**data, "turns": turns, "problems": Counter(data.get("problems") or {})})


async def async_child(job: dict[str, Any]) -> HomeRun:
    """The child side of `run_home`: one home in this process's own Home Assistant."""
    from ..hass_core import async_home_assistant

    counter = TokenCounter(use_bpe=bool(job["bpe"]))
    async with async_home_assistant() as hass:
        return await async_measure_home(
            hass, job["home"], job["cases"], counter, job["group"], job["assist_every"]
        )


def synthetic_jobs(sizes: Sequence[int], languages: Sequence[str], n_cases: int) -> list[Job]:
    jobs: list[Job] = []
    for size in sizes:
        for language in languages:
            home = make_home(size, language, seed=0)
            jobs.append((home, make_cases(home, n_cases, seed=1), "synthetic"))
    return jobs


def dev_jobs(dev_dir: Path) -> list[Job]:
    homes = load_homes(dev_dir / "homes")
    by_home: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for name in ("cases.jsonl", "cases_dialog.jsonl"):
        path = dev_dir / name
        if path.exists():
            for case in load_cases(path):
                by_home[case["home_id"]].append(case)
    return [(homes[h], cs, "dev") for h, cs in sorted(by_home.items()) if h in homes]


PAD_PER_AREA = 25


def pad_home(home: dict[str, Any], size: int) -> dict[str, Any]:
    """The dev home grown to `size` entities with plain sensors on a floor of their own.

    The padding never changes a dev utterance's gold: plain `sensor`s without a device class,
    with names no utterance says, in rooms no utterance names — only Assist's whole-home prompt
    grows with them, exactly as in a big real home.
    """
    padded = json.loads(json.dumps(home))
    missing = size - len(padded.get("entities") or [])
    if missing <= 0:
        return padded
    zh = str(home.get("language", "")).startswith("zh")
    padded["home_id"] = f"{home.get('home_id')}_padded_{size}"
    floor_id = "pad_floor"
    padded.setdefault("floors", []).append(
        {"floor_id": floor_id, "name": "设备层" if zh else "Plant Level", "aliases": []}
    )
    for i in range(missing):
        area = i // PAD_PER_AREA
        area_id = f"pad_area_{area:03d}"
        if i % PAD_PER_AREA == 0:
            padded.setdefault("areas", []).append(
                {
                    "area_id": area_id,
                    "floor_id": floor_id,
                    "aliases": [],
                    "name": f"机房{area:03d}" if zh else f"Plant Room {area:03d}",
                }
            )
        padded["entities"].append(
            {
                "entity_id": f"sensor.pad_{i:05d}",
                "domain": "sensor",
                "device_class": None,
                "name": f"计量点{i:05d}" if zh else f"Meter Point {i:05d}",
                "aliases": [],
                "area_id": area_id,
                "labels": [],
                "state": str(i % 97),
            }
        )
    return padded


def padded_dev_jobs(dev_dir: Path, sizes: Sequence[int]) -> list[Job]:
    """The issue's measurement: the dev-set utterances, in their homes grown to each size."""
    jobs: list[Job] = []
    for home, cases, _ in dev_jobs(dev_dir):
        for size in sizes:
            if size >= len(home.get("entities") or []):
                jobs.append((pad_home(home, size), cases, "dev_padded"))
    return jobs


def run_jobs(
    jobs: list[Job], counter: TokenCounter, assist_every: int = ASSIST_EVERY
) -> list[HomeRun]:
    runs = []
    for home, cases, group in jobs:
        started = time.perf_counter()
        run = run_home(home, cases, counter, group, assist_every)
        runs.append(run)
        print(
            f"{run.home_id}: {len(run.turns)} turns, registries filled in "
            f"{run.build_seconds:.1f} s, {time.perf_counter() - started:.1f} s in all",
            file=sys.stderr,
        )
    return runs
