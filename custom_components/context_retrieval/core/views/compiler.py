"""Compiling a rule written in words: the parser first, a model only when the parser fails or
leaves tags nothing in the home goes by, then validation and the canonical form.

A model that times out or answers badly falls back to the parser's draft, or to an error that
says what happened, never to silence. The model's reading is taken only when it places more of
the text than the parser did.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Literal

from ..base.llm_json import LLMClient
from .canonical import canonicalize, check_limits
from .executor import unresolved_tags
from .lens import HomeLens
from .llm import LLM_SYSTEM_PROMPT, llm_user_prompt, parse_llm_answer
from .model import (
    ErrorCode,
    GroupNode,
    RuleSyntaxError,
    RuleValidationError,
    rule_to_json,
)
from .parser import Connectives, parse_rule, render_rule
from .universe import TagUniverse


@dataclass(slots=True)
class CompileResult:
    """The outcome of compiling a rule. `rule` and `rule_json` are set when `ok`; `warnings`
    say what degraded on the way (`llm_timeout`, `llm_invalid`, `llm_error`, `unresolved_tags`)."""

    ok: bool
    rule: GroupNode | None = None
    rule_json: str | None = None
    compile_source: Literal["deterministic", "llm"] | None = None
    rewrite_note: str | None = None
    error_code: ErrorCode | None = None
    error_reason: str | None = None
    error_message: str | None = None
    error_position: int | None = None
    unresolved_tags: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    rule_text: str | None = None  # the rule rendered back as parseable text

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"ok": self.ok}
        for key in (
            "rule_json",
            "compile_source",
            "rewrite_note",
            "error_code",
            "error_reason",
            "error_message",
            "error_position",
        ):
            value = getattr(self, key)
            if value is not None:
                data[key] = value
        if self.rule is not None:
            data["rule"] = self.rule.as_dict()
            data["rule_text"] = self.rule_text or render_rule(self.rule)
        if self.unresolved_tags:
            data["unresolved_tags"] = self.unresolved_tags
        if self.warnings:
            data["warnings"] = self.warnings
        return data


def _success(
    rule: GroupNode,
    source: Literal["deterministic", "llm"],
    note: str | None,
    universe: TagUniverse,
    connectives: Connectives,
) -> CompileResult:
    unresolved = unresolved_tags(rule, universe)
    return CompileResult(
        ok=True,
        rule=rule,
        rule_json=rule_to_json(rule),
        compile_source=source,
        rewrite_note=note,
        unresolved_tags=unresolved,
        warnings=["unresolved_tags"] if unresolved else [],
        rule_text=render_rule(rule, connectives),
    )


def compile_deterministic(
    text: str, universe: TagUniverse, language: str | None = None
) -> CompileResult:
    """Steps 1, 2 and 4 without any model: the words read as a person means them
    (`reading`), with a note saying how when that took more than the words as written."""
    lexicons = universe.lexicons
    detected = lexicons.detect(text, fallback=language)
    connectives = Connectives.from_lexicons(lexicons, (language, detected))
    lex = lexicons.get(detected)
    try:
        parsed = parse_rule(text, connectives, universe.known_surfaces(), HomeLens(universe, lex))
        rule = canonicalize(parsed)
        check_limits(rule)
    except RuleSyntaxError as err:
        return CompileResult(
            ok=False,
            error_code="PARSE_ERROR",
            error_reason=err.reason,
            error_message=err.message,
            error_position=err.position,
        )
    except RuleValidationError as err:
        return CompileResult(
            ok=False,
            error_code="VALIDATION_ERROR",
            error_reason=err.reason,
            error_message=err.message,
        )
    note = None
    rendered = render_rule(rule, connectives)
    if _reworded(text, rule, connectives):
        note = lex.message("rule_split", term=" ".join(text.split()), rule=rendered)
    return _success(rule, "deterministic", note, universe, connectives)


def _reworded(text: str, rule: GroupNode, connectives: Connectives) -> bool:
    """Whether the reading took more than the words as written: the plain parse (every
    stretch one tag, AND before OR) differs from it."""
    try:
        plain = canonicalize(parse_rule(text, connectives))
    except (RuleSyntaxError, RuleValidationError):
        return True
    return rule_to_json(plain) != rule_to_json(rule)


async def compile_rule(
    text: str,
    universe: TagUniverse,
    *,
    language: str | None = None,
    llm: LLMClient | None = None,
    llm_timeout: float = 15.0,
) -> CompileResult:
    """The whole chain. The model is asked only when the parser fails or leaves tags that
    nothing in the home goes by; a timeout or bad answer falls back to the parser's draft, or
    to an error that says what happened, never to silence."""
    draft = compile_deterministic(text, universe, language)
    if llm is None or (draft.ok and not draft.unresolved_tags):
        return draft
    if draft.error_reason in ("empty", "too_long"):
        return draft  # nothing a model could fix
    parser_error = draft.error_message if not draft.ok else None
    try:
        answer = await asyncio.wait_for(
            llm.complete(LLM_SYSTEM_PROMPT, llm_user_prompt(text, universe, parser_error)),
            llm_timeout,
        )
    except TimeoutError:
        return _degraded(
            draft,
            "llm_timeout",
            "LLM_TIMEOUT",
            f"the model did not answer within {llm_timeout:g} s",
        )
    except Exception as err:  # any client failure degrades, never crashes
        return _degraded(
            draft, "llm_error", "PARSE_ERROR", f"the model could not be asked: {type(err).__name__}"
        )
    try:
        rule, note = parse_llm_answer(answer)
        rule = canonicalize(rule)
        check_limits(rule)
    except RuleValidationError as err:
        code: ErrorCode = "VALIDATION_ERROR" if err.reason != "not_json" else "PARSE_ERROR"
        return _degraded(
            draft, "llm_invalid", code, f"the model's rule was rejected: {err.message}"
        )
    # Only take the model's reading when it places more of the text than the parser did.
    if draft.ok and len(unresolved_tags(rule, universe)) >= len(draft.unresolved_tags):
        draft.warnings.append("llm_not_better")
        return draft
    connectives = Connectives.from_lexicons(
        universe.lexicons, (language, universe.lexicons.detect(text, fallback=language))
    )
    return _success(rule, "llm", note, universe, connectives)


def _degraded(draft: CompileResult, warning: str, code: ErrorCode, message: str) -> CompileResult:
    if draft.ok:
        draft.warnings.append(warning)
        return draft
    parser = f"; the parser said: {draft.error_message}" if draft.error_message else ""
    return CompileResult(
        ok=False,
        error_code=code,
        error_reason=draft.error_reason,
        error_message=message + parser,
        error_position=draft.error_position,
        warnings=[warning],
    )
