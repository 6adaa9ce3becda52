"""core/base/spoken.py: which of an entity's names a reply says, told by script and lexicon."""

from __future__ import annotations

from custom_components.context_retrieval.core import LexiconSet
from custom_components.context_retrieval.core.base.spoken import spoken_name


def test_a_name_in_the_listeners_script_is_kept(lexicons: LexiconSet) -> None:
    zh, en = lexicons.get("zh"), lexicons.get("en")
    # "主卧" stays though "主卧室" (an alias) holds a word the lexicon knows better.
    assert spoken_name("主卧", ("master bedroom", "主卧室"), zh) == "主卧"
    assert spoken_name("Kitchen Light", ("厨房灯",), en) == "Kitchen Light"


def test_an_alias_in_the_listeners_language_replaces_a_name_in_another(
    lexicons: LexiconSet,
) -> None:
    en, zh, de = lexicons.get("en"), lexicons.get("zh"), lexicons.get("de")
    assert spoken_name("吸顶灯", ("ceiling light",), en) == "ceiling light"
    assert spoken_name("Ceiling Light", ("吸顶灯",), zh) == "吸顶灯"
    # The alias whose words the language knows wins over one that only shares its script.
    assert spoken_name("前门门锁", ("Aqara D100", "front door"), en) == "front door"
    # A Latin alias is easier for a German listener than Chinese characters.
    assert spoken_name("台灯", ("desk lamp",), de) == "desk lamp"
    # No alias in the script: the name as it is.
    assert spoken_name("台灯", ("书桌灯",), en) == "台灯"
    assert spoken_name("", ("desk lamp",), en) == ""
