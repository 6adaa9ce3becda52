"""Redaction of personal data and secrets in text that leaves the engine.

Names come from users and integrations and may hold an e-mail address, a phone number or an
API key pasted by mistake. Anything the engine hands out (the assistant's context, service
answers, logs) passes through `redact` first; what a person said is logged only as
`query_hash`.

Every function here takes time linear in its input, whatever the text: names come from
anyone, and may be ten thousand characters of `1.1.1.…` (a backtracking pattern such as
`[\\w.+-]+@` retried at every position takes quadratic time on that). The text is split once
into runs of the characters a secret can be made of; every pattern is one character class
repeated, which the regular-expression engine scans in one pass without going back; each run
is then judged by string methods, and a secret's prefix is checked only where a word starts.
`tests/core/base/test_text_linear.py` counts the steps on 100,000-character hostile texts.
`clean` reads at most a bounded window of its input.
"""

from __future__ import annotations

import hashlib
import re

from .text import strip_controls, truncate

REDACTED = "[redacted]"
# How much of one name a prompt, a question or an answer quotes.
DEFAULT_NAME_LIMIT = 64
# What `clean` reads beyond twice its limit: room for what cleaning removes (controls,
# repeated spaces), and for a secret that straddles the limit to be seen whole.
CLEAN_MARGIN = 256

# One character class each, repeated.
_EMAILISH = re.compile(r"[\w.+@-]+")
_TOKENISH = re.compile(r"[\w.+/=-]+")
_KEYISH = re.compile(r"[A-Za-z0-9+/=-]+")
_PHONISH = re.compile(r"[\d\s().+-]+")
_WORD = re.compile(r"\w+")
_WORD_DASH = re.compile(r"[\w-]+")
_ALNUM = re.compile(r"[A-Za-z0-9]+")
_UPPER_DIGITS = re.compile(r"[0-9A-Z]+")
_DIGITS = re.compile(r"\d+")
_ALNUM8 = re.compile(r"[A-Za-z0-9]{8}")  # every key has such a stretch

_MIN_PHONE_DIGITS = 9  # dates (8 digits) and readings stay; phone numbers have more
_MIN_LONG_TOKEN = 24
_HEX = "0123456789abcdefABCDEF"
_KEY_SEPARATORS = "+/="  # in a long token, but no word character: a token may end there
# Well-known secret shapes: a provider's prefix at the start of a word, then at least so many
# characters of a kind. `sk-`, `pk-`, `rk-` may have `live-`, `test-` or `proj-` next.
_KEY_PREFIXES: tuple[tuple[str, re.Pattern[str], int], ...] = (
    *((f"{kind}{sep}", _ALNUM, 8) for kind in ("sk", "pk", "rk") for sep in "-_"),
    *((f"gh{kind}_", _ALNUM, 16) for kind in "pousr"),
    ("github_pat_", _WORD, 20),
    *((f"xox{kind}-", _WORD_DASH, 10) for kind in "abprs"),
    ("AKIA", _UPPER_DIGITS, 16),
    ("AIza", _WORD_DASH, 30),
)
_KEY_MIDDLES = tuple(f"{word}{sep}" for word in ("live", "test", "proj") for sep in "-_")
_JWT = "eyJ"  # then three dot-separated parts of at least 8 word characters or dashes
_JWT_PART = 8


def redact(text: str) -> str:
    """Replace e-mail addresses, phone numbers and secrets with a marker."""
    if "@" in text:
        text = _replaced(text, _emails(text))
    if _ALNUM8.search(text):
        text = _replaced(text, _keys(text))
        text = _replaced(text, _long_tokens(text))
    if sum(map(str.isdigit, text)) >= _MIN_PHONE_DIGITS:
        text = _replaced(text, _phones(text))
    return text


def _replaced(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with each span (in order, not overlapping) replaced by the marker."""
    if not spans:
        return text
    out: list[str] = []
    done = 0
    for start, end in spans:
        out += (text[done:start], REDACTED)
        done = end
    out.append(text[done:])
    return "".join(out)


def _emails(text: str) -> list[tuple[int, int]]:
    """Runs of address characters with a local part, an `@` and a dotted domain: from the
    run's start to the end of its last such domain."""
    found = []
    for run in _EMAILISH.finditer(text):
        parts = run.group().split("@")
        end = 0
        at = len(parts[0]) + 1  # where parts[i + 1] starts
        for i in range(len(parts) - 1):
            if parts[i] and (length := _domain_length(parts[i + 1])):
                end = at + length
            at += len(parts[i + 1]) + 1
        if end:
            found.append((run.start(), run.start() + end))
    return found


def _domain_length(part: str) -> int:
    """How much of `part` is a dotted domain (`example.co.uk`), 0 if none starts it."""
    pieces = part.split("+", 1)[0].split(".")
    taken = 0
    while taken < len(pieces) and pieces[taken]:
        taken += 1
    return sum(map(len, pieces[:taken])) + taken - 1 if taken >= 2 else 0


def _keys(text: str) -> list[tuple[int, int]]:
    """Tokens holding a provider's key or a JWT where a word starts."""
    return [token.span() for token in _TOKENISH.finditer(text) if _is_key(token.group())]


def _is_key(token: str) -> bool:
    jwt_seen = 0  # a JWT is looked for once per run of word characters and dashes
    for word in _WORD.finditer(token):
        start = word.start()
        if token.startswith(_JWT, start):
            if start >= jwt_seen:
                jwt_seen = _run_end(_WORD_DASH, token, start)
                if _jwt(token, start, jwt_seen):
                    return True
            continue
        if any(
            token.startswith(prefix, start)
            and _key_after(token, start + len(prefix), prefix, body, least)
            for prefix, body, least in _KEY_PREFIXES
        ):
            return True
    return False


def _key_after(token: str, after: int, prefix: str, body: re.Pattern[str], least: int) -> bool:
    """Whether a key's body follows its prefix, directly or after one of the middles a
    three-letter prefix may have ("sk-proj-…")."""
    if _run_end(body, token, after) - after >= least:
        return True
    for middle in _KEY_MIDDLES if len(prefix) == 3 else ():
        if token.startswith(middle, after):
            begin = after + len(middle)
            if _run_end(body, token, begin) - begin >= least:
                return True
    return False


def _run_end(pattern: re.Pattern[str], text: str, at: int) -> int:
    found = pattern.match(text, at)
    return found.end() if found else at


def _jwt(token: str, start: int, end: int) -> bool:
    if end - start - len(_JWT) < _JWT_PART:
        return False
    for _ in range(2):
        if not token.startswith(".", end):
            return False
        after = _run_end(_WORD_DASH, token, end + 1)
        if after - end - 1 < _JWT_PART:
            return False
        end = after
    return True


def _long_tokens(text: str) -> list[tuple[int, int]]:
    """At least 24 key characters between characters that are no word character or dash,
    mixing digits with letters of both cases (or long hex)."""
    found = []
    n = len(text)
    for run in _KEYISH.finditer(text):
        start, end = run.span()
        if end - start < _MIN_LONG_TOKEN:
            continue
        chunk = run.group()
        if start > 0 and _word_or_dash(text[start - 1]):
            seps = [i for i in map(chunk.find, _KEY_SEPARATORS) if i >= 0]
            start += min(seps) + 1 if seps else len(chunk)
        if end < n and _word_or_dash(text[end]):
            end = run.start() + max(map(chunk.rfind, _KEY_SEPARATORS))
        if end - start >= _MIN_LONG_TOKEN and _looks_like_key(text[start:end]):
            found.append((start, end))
    return found


def _word_or_dash(ch: str) -> bool:
    return ch.isalnum() or ch in "_-"


def _looks_like_key(token: str) -> bool:
    """Long runs mixing digits with letters of both cases (or long hex) are secrets."""
    if not any(map(str.isdigit, token)):
        return False
    if any(map(str.isupper, token)) and any(map(str.islower, token)):
        return True
    return len(token) >= 32 and not token.strip(_HEX)


def _phones(text: str) -> list[tuple[int, int]]:
    """From a `+`, `(` or digit to a digit, with separators between, at least 9 digits, not
    glued to a word on either side, and no IPv4 address."""
    found = []
    for run in _PHONISH.finditer(text):
        if sum(map(str.isdigit, run.group())) < _MIN_PHONE_DIGITS:
            continue
        span = _phone_span(text, run.start(), run.end())
        if span is None:
            continue
        number = text[span[0] : span[1]]
        if sum(map(str.isdigit, number)) >= _MIN_PHONE_DIGITS and not _ipv4(number):
            found.append(span)
    return found


def _phone_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    first = _DIGITS.search(text, start, end)
    if first is None:
        return None
    begin = first.start()
    if begin > start and text[begin - 1] == "(":
        begin -= 1
    if begin > start and text[begin - 1] == "+":
        begin -= 1
    if begin > 0 and (_word_or_dash(text[begin - 1]) and text[begin - 1] != "-"):
        # Glued to a word ("Tel123 …"): the number starts after the digits that touch it.
        first = _DIGITS.search(text, first.end() + 1, end)
        if first is None:
            return None
        begin = first.start()
    last = end
    while last > begin and not text[last - 1].isdigit():
        last -= 1
    if last < len(text) and _word_or_dash(text[last]) and text[last] != "-":
        # Glued to a word on the right ("… 4567abc"): it ends before the digits that touch it.
        digits = text[begin:last]
        last = begin + len(digits.rstrip("0123456789"))
        while last > begin and not text[last - 1].isdigit():
            last -= 1
    return (begin, last) if last - begin >= 8 else None


def _ipv4(number: str) -> bool:
    parts = number.strip().split(".")
    return len(parts) == 4 and all(1 <= len(p) <= 3 and p.isdigit() for p in parts)


def clean(value: str, limit: int = DEFAULT_NAME_LIMIT) -> str:
    """One user-controlled string made safe to place in a prompt, a question or a reply:
    control, bidi and zero-width characters removed, white space folded to single spaces,
    personal data redacted, cut to `limit` characters. Only the first `2 × limit +
    CLEAN_MARGIN` characters are read, so a name of any length costs the same."""
    text = (value or "")[: 2 * limit + CLEAN_MARGIN]
    text = strip_controls(text)
    text = " ".join(text.split())
    text = redact(text)
    return truncate(text, limit)


def query_hash(text: str) -> str:
    """What logs and diagnostics say instead of what was said: a SHA-256 (16 hex digits), the
    same for the same words, so repeated requests can be told apart without reading them."""
    return hashlib.sha256((text or "").encode("utf-8")).hexdigest()[:16]
