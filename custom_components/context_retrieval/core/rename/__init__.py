"""Bulk rename of entity names and aliases: plan (preview), apply and restore.

Pure functions, no Home Assistant imports. The integration layer reads the entity registry into
:class:`RenameTarget` objects, shows a :func:`preview`, writes back what :func:`apply` returns, and
keeps a :func:`snapshot` so that :func:`restore_plan` can undo the change later.

Matching rules
--------------
* Text is matched in its NFC-normalised form; characters outside the matched spans keep their
  original code points (only the normalisation segment a match touches is rewritten in NFC).
* ``match_case=False`` (the default) matches case-insensitively.
* ``regex=False`` escapes the find string and inserts the replacement literally (no backslash
  processing). ``regex=True`` allows ``\\1`` / ``\\g<name>`` in the replacement (``Match.expand``);
  a reference to a group that does not exist raises ``RenameError("bad_replacement")``.
* ``whole_word``: a match is rejected when a *non-CJK* word character sits on both sides of
  one of its edges ("lamp" is not in "lampshade"), and when it cuts through one of the home's
  own words given to :func:`preview` or lies inside one without being one (Chinese has no
  spaces between words: "台灯" is in "老台灯" but not in "阳台灯", whose 阳台 is a room, and
  "台" is not in 阳台 either). Otherwise CJK characters count as one word each, so
  whole-word "灯" matches inside "客厅灯".
* ``exclude``: entities the user left out of the rename (rows unticked in the preview).
* Zero-length regex matches are ignored (they would insert text everywhere).
* Regexes run on :mod:`.base.safe_regex`, never on Python's backtracking ``re``: linear in the
  text whatever the pattern (``(a+)+$``, ``.*.*.*#`` included), and all the searches of one
  preview share a :class:`~.base.safe_regex.Budget` of steps and seconds; running out raises
  ``RenameError("regex_budget")``. What linear matching cannot do (back-references,
  look-arounds, conditionals, atomic groups, possessive quantifiers) is refused as
  ``"unsafe_regex"``; a pattern whose program would be too long as ``"regex_too_complex"``.
  Literal finds (``regex=False``) use ``re`` on the escaped text, which is linear.
* A name or alias longer than ``MAX_TEXT_LEN`` is not searched: no rename of it could give a
  name of valid length in practice, and the work per name stays bounded.
* A replacement that would put control, line-break, bidi or zero-width characters into a name
  or alias (literally, or through a regex escape) is refused as ``"hidden_characters"``.
"""

from .matching import REGEX_SECONDS, REGEX_STEPS, Finder, compile_spec, new_budget
from .model import (
    MAX_ALIAS_LEN,
    MAX_FIND_LEN,
    MAX_MATCHES,
    MAX_NAME_LEN,
    MAX_REPLACE_LEN,
    MAX_TEXT_LEN,
    RenameChange,
    RenameError,
    RenamePreview,
    RenameSpec,
    RenameTarget,
)
from .planning import SNAPSHOT_VERSION, apply, preview, restore_plan, snapshot

__all__ = [
    "MAX_ALIAS_LEN",
    "MAX_FIND_LEN",
    "MAX_MATCHES",
    "MAX_NAME_LEN",
    "MAX_REPLACE_LEN",
    "MAX_TEXT_LEN",
    "REGEX_SECONDS",
    "REGEX_STEPS",
    "SNAPSHOT_VERSION",
    "Finder",
    "RenameChange",
    "RenameError",
    "RenamePreview",
    "RenameSpec",
    "RenameTarget",
    "apply",
    "compile_spec",
    "new_budget",
    "preview",
    "restore_plan",
    "snapshot",
]
