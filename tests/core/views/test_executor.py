"""core/views/executor.py: a rule evaluated over the home's tags, and its preview."""

from __future__ import annotations

from custom_components.context_retrieval.core import LexiconSet, load_home
from custom_components.context_retrieval.core.base.models import Area
from custom_components.context_retrieval.core.views.canonical import canonicalize, validate
from custom_components.context_retrieval.core.views.compiler import (
    compile_deterministic,
    compile_rule,
)
from custom_components.context_retrieval.core.views.executor import preview
from custom_components.context_retrieval.core.views.model import (
    GroupNode,
    TagNode,
)
from custom_components.context_retrieval.core.views.parser import (
    render_rule,
)
from custom_components.context_retrieval.core.views.universe import TagUniverse
from tests.core.conftest import DEMO_HOME, make_device
from tests.core.views.conftest import GOOD, FakeLLM, group, tag


def hits(text: str, universe: TagUniverse) -> set[str]:
    result = compile_deterministic(text, universe)
    assert result.ok and result.rule is not None, result
    return set(preview(result.rule, universe).entity_ids)


def test_christmas_example(universe: TagUniverse) -> None:
    assert hits("christmas and (living room or porch)", universe) == {
        "light.tree",
        "switch.tree_star",
        "light.porch_garland",
    }


def test_names_ids_and_aliases_resolve(universe: TagUniverse) -> None:
    by_name = hits("christmas and living room", universe)
    assert hits("christmas and lounge", universe) == by_name
    assert hits("christmas and area:living_room", universe) == by_name
    assert hits("christmas and upstairs", universe) == {"light.bedroom_stars"}
    assert hits("christmas and floor:first", universe) == {"light.bedroom_stars"}
    assert hits("label:christmas and porch", universe) == {"light.porch_garland"}


def test_bare_tag_is_a_label_first(universe: TagUniverse) -> None:
    # "kitchen" is both a label and an area: the label wins; the namespace picks the area.
    assert hits("kitchen", universe) == {"sensor.kitchen_temp"}
    assert hits("area:kitchen", universe) == {"light.kitchen", "sensor.kitchen_temp"}


def test_type_words_domains_and_classes(universe: TagUniverse) -> None:
    lights = {
        "light.tree",
        "light.porch_garland",
        "light.bedroom_stars",
        "light.kitchen",
        "light.living",
    }
    assert hits("lights", universe) == lights
    assert hits("灯", universe) == lights
    assert hits("domain:light", universe) == lights
    assert hits("device_class:door or device_class:temperature", universe) == {
        "binary_sensor.porch_door",
        "sensor.kitchen_temp",
    }


def test_label_without_entities_resolves_to_nothing_without_a_warning(
    universe: TagUniverse,
) -> None:
    result = compile_deterministic("spare", universe)
    assert result.ok and result.unresolved_tags == []
    assert preview(result.rule, universe).entity_hits == 0  # type: ignore[arg-type]


def test_preview_counts_entities_devices_and_samples(universe: TagUniverse) -> None:
    result = compile_deterministic("christmas", universe)
    assert result.rule is not None
    p = preview(result.rule, universe)
    assert (p.entity_hits, p.device_hits, p.total_hits) == (4, 3, 7)
    assert [s["id"] for s in p.sample_items] == [
        "light.bedroom_stars",
        "light.tree",
        "switch.tree_star",
        "light.porch_garland",
    ]
    assert p.sample_items[0] == {
        "kind": "entity",
        "id": "light.bedroom_stars",
        "name": "Star Projector",
        "area": "Bedroom",
    }
    assert p.resolved == {"christmas": "label:Christmas"}


def test_preview_samples_at_most_ten(lexicons: LexiconSet) -> None:
    devices = [make_device(f"light.l{i:02}", f"Lamp {i:02}", labels=("many",)) for i in range(25)]
    u = TagUniverse.build(devices, [], [], lexicons)
    p = preview(canonicalize(GroupNode("AND", (TagNode("many"),))), u)
    assert p.entity_hits == 25 and len(p.sample_items) == 10
    assert p.sample_items[0]["id"] == "light.l00"


def test_unresolved_tags_are_reported_with_suggestions(universe: TagUniverse) -> None:
    result = compile_deterministic("chrismas and kitchn", universe)
    assert result.ok
    assert result.unresolved_tags == ["chrismas", "kitchn"]
    assert "unresolved_tags" in result.warnings
    p = preview(result.rule, universe)  # type: ignore[arg-type]
    assert p.entity_hits == 0
    assert "Christmas" in p.suggestions["chrismas"]
    assert "Kitchen" in p.suggestions["kitchn"] or "kitchen" in p.suggestions["kitchn"]


def test_unresolved_phrase_is_split_into_existing_tags_with_a_note(universe: TagUniverse) -> None:
    result = compile_deterministic("christmas lights", universe)
    assert result.ok and result.compile_source == "deterministic"
    assert result.rule is not None
    assert result.rule.as_dict() == group("AND", tag("christmas"), tag("lights"))
    assert result.rewrite_note and "christmas lights" in result.rewrite_note
    assert set(preview(result.rule, universe).entity_ids) == {
        "light.tree",
        "light.porch_garland",
        "light.bedroom_stars",
    }


def test_demo_home_chinese_rules(lexicons: LexiconSet) -> None:
    home = load_home(DEMO_HOME)
    u = TagUniverse.build(home.devices, home.areas, home.floors, lexicons)
    lights = {d.entity_id for d in home.devices if d.domain == "light"}
    rooms = {d.entity_id for d in home.devices if d.area_id in ("living_room", "kitchen")}
    assert hits("灯 并且 (客厅 或 厨房)", u) == lights & rooms
    split = compile_deterministic("客厅里的灯", u)
    assert split.rewrite_note and "客厅里的灯" in split.rewrite_note
    assert hits("客厅的灯", u) == {
        d.entity_id for d in home.devices if d.domain == "light" and d.area_id == "living_room"
    }
    festive = {d.entity_id for d in home.devices if "圣诞装饰" in d.labels}
    assert festive and hits("圣诞装饰", u) == festive


def test_hostile_names_are_data(lexicons: LexiconSet) -> None:
    evil = 'x") OR (1=1'
    devices = [make_device("light.a", "A", labels=(evil,)), make_device("light.b", "B")]
    u = TagUniverse.build(devices, [], [], lexicons)
    rule = validate(group("AND", tag(evil)))
    assert preview(canonicalize(rule), u).entity_ids == {"light.a"}
    # Rendered back as text, it is quoted so the parser reads the same single tag.
    assert "(1=1" in render_rule(rule)


async def test_llm_rescues_unresolved_tags(universe: TagUniverse) -> None:
    llm = FakeLLM(GOOD)
    result = await compile_rule("xmas decorations outside", universe, llm=llm)
    assert result.ok and result.compile_source == "llm" and len(llm.calls) == 1


def test_a_compound_room_name_holds_a_room_kind_word_of_four_letters_or_more(lexicons):
    """German writes "Hausflur" (house hallway) in one word: "Flur" (4 letters) names it; a
    3-letter kind word ("Bad", bathroom) inside a compound is too likely another word's end
    ("Sonnenbad" is a sunbathing spot) and names nothing."""
    hall, sun = Area("hausflur", "Hausflur"), Area("sonnenbad", "Sonnenbad")
    devices = [
        make_device("light.hall", "Deckenlicht", hall),
        make_device("light.sun", "Strahler", sun),
    ]
    u = TagUniverse.build(devices, [hall, sun], [], lexicons)
    flur = u.resolve("flur")
    assert flur is not None and flur.members == {"light.hall"}
    assert u.resolve("bad") is None
