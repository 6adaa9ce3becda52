"""Language lexicons: the words of each language, loaded from data files.

Every language is one JSON file in `lexicons/` with the same keys (see `en.json`). Code never
branches on a language code; it asks the lexicon. `types.json` holds what type and state words
mean in Home Assistant terms and `values.json` what values mean; both are shared by all
languages.

- `model`: one language's `Lexicon` and how it is built from its file's data;
- `tables`: the shared type and value tables;
- `learned`: merging words learned from Home Assistant's intent data under the file's;
- `loading`: `LexiconSet`, every language loaded, and `default_lexicons`.
"""

from __future__ import annotations

from .building import add_question, build_lexicon
from .learned import LEARNED_SECTIONS, VALUE_SECTIONS, merge_learned_data
from .loading import (
    LEXICON_DIR,
    SHARED_FILES,
    Learner,
    LexiconSet,
    default_lexicons,
    load_lexicons,
)
from .model import INFLECTABLE_KINDS, Lexicon
from .tables import ActionValue, Target, TypeSpec, TypeTable, ValueTable

__all__ = [
    "INFLECTABLE_KINDS",
    "LEARNED_SECTIONS",
    "LEXICON_DIR",
    "SHARED_FILES",
    "VALUE_SECTIONS",
    "ActionValue",
    "Learner",
    "Lexicon",
    "LexiconSet",
    "Target",
    "TypeSpec",
    "TypeTable",
    "ValueTable",
    "add_question",
    "build_lexicon",
    "default_lexicons",
    "load_lexicons",
    "merge_learned_data",
]
