"""Text normalisation shared by the utterance side and the home side.

Both sides must go through the same function, or "客厅（东）" and "客厅(东)" stop matching.
No synonym mapping happens here: that is the lexicons' job.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable
from functools import cache, lru_cache
from pathlib import Path

_DATA = Path(__file__).parent / "lexicons"

# Zero-width and bidi control characters carry no meaning for matching and are a classic way
# to smuggle look-alike names; they are removed, not replaced.
_INVISIBLE = dict.fromkeys(
    [
        0x200B,
        0x200C,
        0x200D,
        0x2060,
        0xFEFF,
        0x00AD,
        0x180E,
        *range(0x202A, 0x202F),
        *range(0x2066, 0x206A),
    ],
    None,
)
_DASHES = dict.fromkeys(map(ord, "‐‑‒–—―−﹘﹣－_"), "-")
_BRACKETS = {
    ord("【"): "(",
    ord("】"): ")",
    ord("〔"): "(",
    ord("〕"): ")",
    ord("「"): "(",
    ord("」"): ")",
    ord("『"): "(",
    ord("』"): ")",
    ord("［"): "(",
    ord("］"): ")",
    ord("["): "(",
    ord("]"): ")",
    ord("{"): "(",
    ord("}"): ")",
    ord("《"): "(",
    ord("》"): ")",
    ord("〈"): "(",
    ord("〉"): ")",
}
_APOSTROPHES = dict.fromkeys(map(ord, "’‘`´ʼ"), "'")
_SPACES = re.compile(r"\s+")


@cache
def _traditional_map() -> dict[int, str]:
    """Traditional → Simplified Chinese for the characters homes and commands use."""
    path = _DATA / "zh_hant_to_hans.json"
    if not path.exists():
        return {}
    table: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return {ord(k): v for k, v in table.items() if len(k) == 1}


_LINE_BREAKS = frozenset("\r\n\t\v\f\u2028\u2029\x85")


@cache
def _pinyin_table() -> dict[str, frozenset[str]]:
    """Toneless Mandarin readings of common characters, for telling homophone slips apart."""
    path = _DATA / "zh_pinyin.json"
    if not path.exists():
        return {}
    table: dict[str, str | list[str]] = json.loads(path.read_text(encoding="utf-8"))
    return {k: frozenset([v] if isinstance(v, str) else v) for k, v in table.items()}


def sounds_alike(a: str, b: str) -> bool:
    """Whether two Chinese characters share a reading (房/方, 厅/听); False if unknown."""
    if a == b:
        return True
    table = _pinyin_table()
    return bool(table.get(a, frozenset()) & table.get(b, frozenset()))


def strip_controls(text: str) -> str:
    """Remove zero-width, bidi-override and non-characters; controls and line breaks become
    spaces."""
    # Printable text holds none of them (a test reads every printable character through
    # `_stripped`): most names and sentences skip the pass character by character.
    return text if text.isprintable() else _stripped(text)


def _stripped(text: str) -> str:
    out: list[str] = []
    for ch in text.translate(_INVISIBLE):
        category = unicodedata.category(ch)
        if ch in _LINE_BREAKS or category == "Cc":
            # Control characters separate words ("Desk\x1fLamp"); format characters and
            # non-characters are invisible and simply dropped.
            out.append(" ")
        elif category not in ("Cf", "Cs", "Co") and not _is_noncharacter(ch):
            out.append(ch)
    return "".join(out)


def has_hidden_characters(text: str) -> bool:
    """Whether `text` holds anything `strip_controls` would remove or replace: control,
    line-break, bidi, zero-width or format characters, or non-characters."""
    return strip_controls(text) != text


def _is_noncharacter(ch: str) -> bool:
    code = ord(ch)
    return 0xFDD0 <= code <= 0xFDEF or (code & 0xFFFE) == 0xFFFE


@lru_cache(maxsize=8192)
def normalize(text: str) -> str:
    """Lower-case, width-fold and tidy `text` for matching.

    NFKC folds full-width letters, digits and punctuation to ASCII; Traditional Chinese folds
    to Simplified; brackets, dashes and apostrophes are unified; runs of spaces collapse.
    """
    if not text:
        return ""
    # Ordinary printable text has nothing to strip; the per-character pass is the slow part.
    if not text.isprintable():
        text = strip_controls(text)
    text = unicodedata.normalize("NFKC", text)
    text = text.translate(_DASHES).translate(_BRACKETS).translate(_APOSTROPHES)
    text = text.casefold()
    text = text.translate(_traditional_map())
    return _SPACES.sub(" ", text).strip()


# Letters typed as another in everyday writing that no decomposition folds: Latin letters with
# a stroke or ligatures ("lazienka" for "łazienka"), and the Cyrillic ё, written е in most
# Russian text.
_PLAIN_LETTERS = str.maketrans(
    {"ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ß": "ss", "æ": "ae", "œ": "oe", "ё": "е"}
)


def fold_accents(text: str) -> str:
    """`text` without the accents of its Latin letters ("télé" → "tele", "łazienka" →
    "lazienka"), and ё as е: people often type without them. Other marks are left alone:
    in other scripts they are letters (й is not и)."""
    if text.isascii():
        return text
    out: list[str] = []
    for ch in unicodedata.normalize("NFD", text.translate(_PLAIN_LETTERS)):
        if out and unicodedata.combining(ch) and _is_latin(out[-1]):
            continue
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out))


def _is_latin(ch: str) -> bool:
    return ch.isascii() or unicodedata.name(ch, "").startswith("LATIN")


# Chinese, Japanese and Korean characters, first and last code point of each block: kana, CJK
# extension A, unified ideographs, Hangul syllables, compatibility ideographs, extension B.
CJK_BLOCKS = (
    (0x3040, 0x30FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xAC00, 0xD7AF),
    (0xF900, 0xFAFF),
    (0x20000, 0x2A6DF),
)
_CJK_RANGES = "".join(f"{chr(first)}-{chr(last)}" for first, last in CJK_BLOCKS)
_CJK_RE = re.compile(f"[{_CJK_RANGES}]")


def is_cjk(ch: str) -> bool:
    """Chinese/Japanese/Korean characters: words are written without spaces."""
    return _CJK_RE.match(ch) is not None


def has_cjk(text: str) -> bool:
    return _CJK_RE.search(text) is not None


_CJK_RUN_RE = re.compile(f"[{_CJK_RANGES}]+")


def cjk_runs(text: str) -> list[str]:
    """The stretches of CJK characters in `text` ("客厅 lamp 台灯" → 客厅, 台灯)."""
    return _CJK_RUN_RE.findall(text)


def cuts_a_word(text: str, start: int, end: int, words: Iterable[str]) -> bool:
    """Whether [start, end) of `text` cuts through one of `words` where it occurs: overlaps
    it without holding it or lying inside it ("台灯" in 阳台灯 cuts the room word 阳台).
    Chinese has no spaces, so the home's own words are what tell a word's edges."""
    for word in words:
        if not word:
            continue
        at = text.find(word, max(0, start - len(word) + 1))
        while 0 <= at < end:
            stop = at + len(word)
            if (
                stop > start
                and not (at <= start and end <= stop)
                and not (start <= at and stop <= end)
            ):
                return True
            at = text.find(word, at + 1)
    return False


def mentions(text: str, term: str) -> bool:
    """`term` occurs in `text` (both normalised): as characters for Chinese/Japanese/Korean (at
    least two: one character is in too many names), as whole words otherwise ("den" is not in
    "garden light")."""
    if not term or not text:
        return False
    if has_cjk(term):
        return len(term) >= 2 and term in text
    parts = tokens(term)
    if not parts:
        # A term of punctuation alone ("!!", a hostile area name) is in no text.
        return False
    if not all(part in text for part in parts):  # most texts: no need to split them
        return False
    words = tokens(text)
    return any(words[i : i + len(parts)] == parts for i in range(len(words) - len(parts) + 1))


def script_of(text: str) -> str:
    """The dominant script of `text`: "cjk", "cyrillic", "latin", "other" or "none"."""
    counts = {"cjk": 0, "cyrillic": 0, "latin": 0, "other": 0}
    for ch in text:
        if is_cjk(ch):
            counts["cjk"] += 1
        elif "\u0400" <= ch <= "\u04ff":
            counts["cyrillic"] += 1
        elif ch.isalpha():
            if ch.isascii() or "\u00c0" <= ch <= "\u024f":
                counts["latin"] += 1
            else:
                counts["other"] += 1
    if not any(counts.values()):
        return "none"
    # CJK characters carry a word each; weigh them so "暂停客厅music" counts as Chinese.
    counts["cjk"] *= 3
    return max(counts, key=lambda k: counts[k])


_TOKEN_RE = re.compile(r"[\w'.%°]+", re.UNICODE)
_CJK_SPLIT_RE = re.compile(f"[{_CJK_RANGES}]|[^{_CJK_RANGES}]+")
# Elided articles and pronouns ("l'", "qu'") and Italian articles fused with a preposition
# ("dell'", "nell'", "all'", "sull'") or cut before a vowel ("un'", "quest'").
_ELISION_RE = re.compile(
    r"((?:qu|[cdjlmnst]|[dnscp]?[aeou]ll|quell|un|quest|nessun|tutt)')(?=\w\w)"
)


@lru_cache(maxsize=8192)
def tokens(text: str) -> tuple[str, ...]:
    """Word tokens of already-normalised text; every CJK character is its own token."""
    out: list[str] = []
    for match in _TOKEN_RE.finditer(text):
        word = match.group(0).strip(".'")
        if not word:
            continue
        elided = _ELISION_RE.match(word)
        if elided:
            # French/Italian elision: "l'entrée" is "l'" + "entrée" on both sides of a match.
            out.append(elided.group(1))
            word = word[elided.end(1) :]
        if not _CJK_RE.search(word):
            out.append(word)
            continue
        # Split off each CJK character; Latin/digit runs between them stay whole words.
        out.extend(_CJK_SPLIT_RE.findall(word))
    return tuple(out)


def truncate(text: str, limit: int) -> str:
    """Cut `text` to at most `limit` characters, marking the cut with an ellipsis."""
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 1)].rstrip() + "…"
