"""Redaction of personal data and secrets in text that leaves the engine.

Names come from users and integrations and may hold an e-mail address, a phone number or an
API key pasted by mistake. Anything the engine hands out (the assistant's context, service
answers, logs) passes through `redact` first; what a person said is logged only as
`query_hash`.
"""

from __future__ import annotations

import hashlib
import re

from .text import strip_controls, truncate

REDACTED = "[redacted]"
# How much of one name a prompt, a question or an answer quotes.
DEFAULT_NAME_LIMIT = 64

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_PHONE = re.compile(r"(?<![\w(])\+?\(?\d[\d\s().-]{6,}\d(?![\w])")
_IPV4 = re.compile(r"^\d{1,3}(?:\.\d{1,3}){3}$")
# Well-known secret shapes: provider prefixes with their separator, AWS/Google key ids, JWTs.
_KEY_PREFIX = re.compile(
    r"\b(?:(?:sk|pk|rk)[-_](?:live[-_]|test[-_]|proj[-_])?[A-Za-z0-9]{8,}"
    r"|gh[pousr]_[A-Za-z0-9]{16,}|github_pat_\w{20,}|xox[abprs]-[\w-]{10,}"
    r"|AKIA[0-9A-Z]{16}|AIza[\w-]{30,}|eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,})"
)
_LONG_TOKEN = re.compile(r"(?<![\w-])[A-Za-z0-9+/=-]{24,}(?![\w-])")
_MIN_PHONE_DIGITS = 9  # dates (8 digits) and readings stay; phone numbers have more


def redact(text: str) -> str:
    """Replace e-mail addresses, phone numbers and secrets with a marker."""
    text = _EMAIL.sub(REDACTED, text)
    text = _KEY_PREFIX.sub(REDACTED, text)
    text = _LONG_TOKEN.sub(lambda m: REDACTED if _looks_like_key(m.group(0)) else m.group(0), text)
    text = _PHONE.sub(
        lambda m: (
            REDACTED
            if sum(c.isdigit() for c in m.group(0)) >= _MIN_PHONE_DIGITS
            and not _IPV4.match(m.group(0).strip())
            else m.group(0)
        ),
        text,
    )
    return text


def _looks_like_key(token: str) -> bool:
    """Long runs mixing digits with letters of both cases (or long hex) are secrets."""
    digits = sum(c.isdigit() for c in token)
    upper = any(c.isupper() for c in token)
    lower = any(c.islower() for c in token)
    if not digits:
        return False
    is_hex = all(c in "0123456789abcdefABCDEF" for c in token)
    return (upper and lower) or (is_hex and len(token) >= 32)


def clean(value: str, limit: int = DEFAULT_NAME_LIMIT) -> str:
    """One user-controlled string made safe to place in a prompt, a question or a reply:
    control, bidi and zero-width characters removed, white space folded to single spaces,
    personal data redacted, cut to `limit` characters."""
    text = strip_controls(value or "")
    text = " ".join(text.split())
    text = redact(text)
    return truncate(text, limit)


def query_hash(text: str) -> str:
    """What logs and diagnostics say instead of what was said: a SHA-256 (16 hex digits), the
    same for the same words, so repeated requests can be told apart without reading them."""
    return hashlib.sha256((text or "").encode("utf-8")).hexdigest()[:16]
