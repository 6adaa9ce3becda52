"""The language a service reads its text in.

The text's own language, detected; a `language` given with the request, or else Home
Assistant's, only breaks a tie (a text in no language we can tell apart). A tag we have no
words for ("ar" from a language picker) helps nothing and is passed over, so that it cannot
make a Chinese question be read as English.
"""

from __future__ import annotations

from homeassistant.core import HomeAssistant

from ..core.base.lexicon import LexiconSet, default_lexicons


def known_language(lexicons: LexiconSet, tag: str | None) -> str | None:
    """Our language code for a tag ("zh-Hans" → "zh", "en_US" → "en"); None for a tag we
    have no lexicon for."""
    if not tag:
        return None
    lex = lexicons.get(tag)
    normalized = tag.lower().replace("_", "-")
    if lex.language == normalized.split("-")[0] or normalized in lex.aliases:
        return lex.language
    return None


def tie_breaker(hass: HomeAssistant, given: str | None) -> str | None:
    """The language that breaks a tie: the request's, else Home Assistant's, if we read it."""
    lexicons = default_lexicons()  # loaded off the event loop when the integration set up
    return known_language(lexicons, given) or known_language(lexicons, hass.config.language)


def text_language(hass: HomeAssistant, text: str, given: str | None) -> str:
    """The language to read `text` in."""
    return default_lexicons().detect(text, fallback=tie_breaker(hass, given))
