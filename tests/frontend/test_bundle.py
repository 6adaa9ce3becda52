"""The committed panel bundle is what the sources build to, the sources type-check, and every
text the panel shows exists in English and Simplified Chinese."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from custom_components.context_retrieval.core.questions.plan import FIELDS

ROOT = Path(__file__).resolve().parents[2]
FRONTEND = ROOT / "frontend"
BUNDLE = (
    ROOT / "custom_components" / "context_retrieval" / "frontend" / "context-retrieval-panel.js"
)
TRANSLATIONS = FRONTEND / "src" / "translations"
LANGUAGES = ("en", "zh-Hans")


def _toolchain() -> None:
    if (
        shutil.which("node") is None
        or not (FRONTEND / "node_modules" / ".bin" / "esbuild").exists()
    ):
        pytest.fail(
            "The frontend toolchain is missing: run scripts/setup (or scripts/setup_frontend)",
            pytrace=False,
        )


def test_committed_bundle_equals_a_fresh_build(tmp_path: Path) -> None:
    _toolchain()
    fresh = tmp_path / "panel.js"
    subprocess.run(
        ["node", "build.mjs", "--outfile", str(fresh)], cwd=FRONTEND, check=True, timeout=120
    )
    assert fresh.read_bytes() == BUNDLE.read_bytes(), (
        "custom_components/context_retrieval/frontend/ is stale: run `npm run build` in "
        "frontend/ and commit the bundle"
    )


def test_sources_type_check() -> None:
    _toolchain()
    done = subprocess.run(
        [str(FRONTEND / "node_modules" / ".bin" / "tsc"), "--noEmit", "-p", "."],
        cwd=FRONTEND,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _dictionary(language: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((TRANSLATIONS / f"{language}.json").read_text("utf-8"))
    return data


def test_both_languages_have_the_same_keys_and_placeholders() -> None:
    english, chinese = (_dictionary(lang) for lang in LANGUAGES)
    assert set(english) == set(chinese)
    for key, text in english.items():
        assert text.strip() and chinese[key].strip(), key
        placeholders = set(re.findall(r"\{(\w+)\}", text))
        assert placeholders == set(re.findall(r"\{(\w+)\}", chinese[key])), key


def _used_keys() -> tuple[set[str], set[str]]:
    """Keys the sources name literally, and the prefixes of keys built with `${…}`."""
    literal: set[str] = set()
    prefixes: set[str] = set()
    for path in (FRONTEND / "src").rglob("*.ts"):
        text = path.read_text("utf-8")
        literal |= set(re.findall(r"\bt\(\s*\"([a-z0-9_.]+)\"", text))
        prefixes |= set(re.findall(r"\bt\(\s*`([a-z0-9_.]+)\$\{", text))
    return literal, prefixes


def test_every_key_the_panel_uses_is_translated() -> None:
    english = _dictionary("en")
    literal, prefixes = _used_keys()
    assert len(literal) > 100
    assert literal <= set(english), sorted(literal - set(english))
    for prefix in prefixes:
        assert any(k.startswith(prefix) for k in english), prefix


def test_no_key_is_left_unused() -> None:
    literal, prefixes = _used_keys()
    unused = [
        k
        for k in _dictionary("en")
        if k not in literal and not any(k.startswith(p) for p in prefixes)
    ]
    assert unused == []


def test_keys_built_at_run_time_cover_the_integrations_values() -> None:
    """Values the backend sends that the panel translates by key."""
    english = _dictionary("en")
    for value in ("one", "all", "any", "except"):
        assert f"quantifier.{value}" in english
    for value in ("exact", "similar", "full_text", "deterministic", "llm", "none", "command"):
        assert f"questions.source.{value}" in english
    for value in (
        "empty_name",
        "name_too_long",
        "empty_alias",
        "alias_too_long",
        "duplicate_alias",
    ):
        assert f"rename.conflict.{value}" in english
    for value in ("keyword", "hashing"):  # search's and the embedding fallback's
        assert f"search.fallback.{value}" in english

    assert {f"field.{f}" for f in FIELDS} <= set(english)
    for page in ("try", "views", "questions", "search", "rename", "health"):
        assert f"tab.{page}" in english


def test_values_reach_the_page_only_as_text() -> None:
    """Names are data: no source puts a string into the page as markup."""
    for path in (FRONTEND / "src").rglob("*.ts"):
        text = path.read_text("utf-8")
        for risky in (
            "unsafeHTML",
            "innerHTML",
            "outerHTML",
            "insertAdjacentHTML",
            "unsafeCSS",
            "document.write",
        ):
            assert risky not in text, f"{path.name}: {risky}"


def test_every_plan_term_and_refusal_is_translated() -> None:
    """Issue 22: the Chinese panel showed `类型 ∈ door` and `状况 = unlocked`: every device
    type, status, operator and plan refusal the backend can send has a text in each language."""
    from custom_components.context_retrieval.core.base.lexicon import LEXICON_DIR
    from custom_components.context_retrieval.core.questions import plan as plan_module

    types = json.loads((LEXICON_DIR / "types.json").read_text(encoding="utf-8"))["types"]
    source = Path(plan_module.__file__).read_text(encoding="utf-8")
    reasons = set(re.findall(r'PlanError\(\s*"([a-z_]+)"', source))
    assert {"not_json", "bad_type", "bad_status"} <= reasons
    wanted = (
        {f"plan.type.{t}" for t in types if not t.startswith("_")}
        | {f"plan.status.{s}" for s in plan_module.STATUSES}
        | {f"plan.op.{o}" for o in plan_module.OPS}
        | {f"questions.plan_error.{r}" for r in reasons}
    )
    for language in ("en", "zh-Hans"):
        dictionary = _dictionary(language)
        assert wanted <= set(dictionary), (language, sorted(wanted - set(dictionary)))
