"""core/search.py: ranking, weights, recency, paging, degradation, caps."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest

from bench.synthetic import make_home
from custom_components.context_retrieval.core import DeviceIndex, home_from_dict, load_home
from custom_components.context_retrieval.core.base.models import Area, Candidate
from custom_components.context_retrieval.core.base.text import normalize
from custom_components.context_retrieval.core.search import (
    KEYWORD_WEIGHT,
    MAX_CANDIDATES,
    MAX_PAGE_SIZE,
    MAX_PER_SIDE,
    MAX_QUERY_CHARS,
    RECENCY_WEIGHT,
    SEMANTIC_WEIGHT,
    explain,
    mark,
    search,
)
from custom_components.context_retrieval.core.search.recall import SemanticFailure, semantic_recall
from custom_components.context_retrieval.core.search.words import (
    NO_SHARED_WORD_FACTOR,
    OTHER_KIND_FACTOR,
    OTHER_ROOM_FACTOR,
    WordFit,
    cjk_occurrence,
    fit,
    named_rooms,
    read_query,
    same_word,
)
from tests.core.conftest import make_device

NOW = 1_700_000_000.0


def _fit(index: DeviceIndex, entity_id: str, query: str) -> WordFit:
    return fit(index, entity_id, read_query(index, normalize(query)))


def test_exact_name_ranks_first_with_marking(small_en_index: DeviceIndex) -> None:
    res = search(small_en_index, "Island Pendants")
    top = res.results[0]
    assert top.entity_id == "light.kitchen_island"
    assert top.matched == "[[Island Pendants]]"
    assert top.matched_field == "name"
    assert top.area == "Kitchen"
    assert top.score_breakdown["keyword"] == 1.0


def test_alias_match_is_marked(small_en_index: DeviceIndex) -> None:
    res = search(small_en_index, "old buddy")
    assert res.results[0].entity_id == "light.living_lamp"
    assert res.results[0].matched == "[[old buddy]]"
    assert res.results[0].matched_field == "alias"


def test_chinese_query_on_demo_home(demo_index: DeviceIndex) -> None:
    res = search(demo_index, "客厅落地灯")
    assert res.results[0].entity_id == "light.ke_ting_luo_di_deng"
    assert res.results[0].matched == "[[客厅落地灯]]"
    res = search(demo_index, "吸顶灯")
    assert {h.entity_id for h in res.results[:4]} >= {
        "light.living_room_ceiling",
        "light.kitchen_ceiling",
    }
    assert all("[[吸顶灯]]" in h.matched for h in res.results[:4])


def test_area_query_recalls_area_entities(small_en_index: DeviceIndex) -> None:
    res = search(small_en_index, "kitchen", page_size=50)
    ids = {h.entity_id for h in res.results}
    assert {"light.kitchen_island", "light.kitchen_ceiling"} <= ids
    island = next(h for h in res.results if h.entity_id == "light.kitchen_island")
    assert island.matched_field == "area" and island.matched == "[[Kitchen]]"


def test_strategies_differ(small_en_index: DeviceIndex) -> None:
    kw = search(small_en_index, "desk lamp", strategy="keyword")
    sem = search(small_en_index, "desk lamp", strategy="semantic")
    hyb = search(small_en_index, "desk lamp", strategy="hybrid")
    for hit in kw.results:
        assert hit.score_breakdown["semantic"] == 0.0 and hit.score_breakdown["recency"] == 0.0
        assert hit.score == pytest.approx(hit.score_breakdown["keyword"])
    for hit in sem.results:
        assert hit.score_breakdown["keyword"] == 0.0
        assert hit.score == pytest.approx(hit.score_breakdown["semantic"])
    assert kw.strategy == "keyword" and sem.strategy == "semantic" and hyb.strategy == "hybrid"
    assert [h.score for h in kw.results] != [h.score for h in hyb.results]
    with pytest.raises(ValueError):
        search(small_en_index, "desk lamp", strategy="magic")


def test_hybrid_weights_hand_checked(small_en_index: DeviceIndex) -> None:
    recency = {"light.office_desk": NOW - 6 * 3600}  # a quarter of the day ago → 0.75
    res = search(small_en_index, "desk lamp", recency=recency, now=NOW)
    hit = next(h for h in res.results if h.entity_id == "light.office_desk")
    b = hit.score_breakdown
    assert b["recency"] == pytest.approx(0.75)
    assert b["keyword"] == 1.0
    assert 0.0 < b["semantic"] <= 1.0
    expected = (
        KEYWORD_WEIGHT * b["keyword"]
        + SEMANTIC_WEIGHT * b["semantic"]
        + RECENCY_WEIGHT * b["recency"]
    )
    assert abs(hit.score - expected) < 1e-6
    assert (KEYWORD_WEIGHT, SEMANTIC_WEIGHT, RECENCY_WEIGHT) == (0.55, 0.35, 0.10)
    # Every keyword score is normalised by this query's best.
    assert max(h.score_breakdown["keyword"] for h in res.results) == 1.0


def test_recency_breaks_ties_and_moves_up(small_en_index: DeviceIndex) -> None:
    ceilings = {"light.living_ceiling", "light.kitchen_ceiling", "light.bedroom_ceiling"}
    plain = search(small_en_index, "ceiling light", strategy="keyword")
    top3 = [h.entity_id for h in plain.results[:3]]
    assert set(top3) == ceilings
    assert top3 == sorted(top3)  # no recency: entity_id order
    recent = search(
        small_en_index,
        "ceiling light",
        strategy="keyword",
        recency={"light.living_ceiling": NOW - 60},
        now=NOW,
    )
    assert recent.results[0].entity_id == "light.living_ceiling"
    hybrid = search(small_en_index, "ceiling light", recency={"light.living_ceiling": NOW}, now=NOW)
    assert hybrid.results[0].entity_id == "light.living_ceiling"
    assert hybrid.results[0].score_breakdown["recency"] == 1.0
    old = search(
        small_en_index, "ceiling light", recency={"light.living_ceiling": NOW - 25 * 3600}, now=NOW
    )
    living = next(h for h in old.results if h.entity_id == "light.living_ceiling")
    assert living.score_breakdown["recency"] == 0.0


def test_min_score_hides(small_en_index: DeviceIndex) -> None:
    loose = search(small_en_index, "desk lamp", min_score=0.0, page_size=50)
    strict = search(small_en_index, "desk lamp", min_score=0.8, page_size=50)
    assert strict.total < loose.total
    assert all(h.score >= 0.8 for h in strict.results)
    assert search(small_en_index, "desk lamp", min_score=1.01).total == 0


def test_paging_and_cap(demo_index: DeviceIndex) -> None:
    full = search(demo_index, "灯", min_score=0.0, page_size=50)
    assert full.total > 5
    p1 = search(demo_index, "灯", min_score=0.0, page_size=2, page=1)
    p2 = search(demo_index, "灯", min_score=0.0, page_size=2, page=2)
    assert p1.has_more and p1.total == full.total
    assert [h.entity_id for h in p1.results + p2.results] == [h.entity_id for h in full.results[:4]]
    last = search(demo_index, "灯", min_score=0.0, page_size=2, page=(full.total + 1) // 2)
    assert not last.has_more
    beyond = search(demo_index, "灯", min_score=0.0, page=999)
    assert beyond.results == [] and not beyond.has_more
    capped = search(demo_index, "灯", min_score=0.0, page_size=500)
    assert capped.page_size == MAX_PAGE_SIZE
    assert len(capped.results) <= MAX_PAGE_SIZE
    assert capped.meta["page_size_capped"] == {"requested": 500, "used": MAX_PAGE_SIZE}
    assert search(demo_index, "灯", page=0).page == 1


class RaisingSearcher:
    def vectorize(self, text: str) -> np.ndarray:
        raise RuntimeError("model offline")

    def search(
        self, query_vector: np.ndarray, top_k: int, allowed: set[str] | None = None
    ) -> list[Candidate]:
        raise RuntimeError("model offline")


class SlowSearcher:
    """Answers correctly but advances a fake clock by 5 s per call."""

    def __init__(self, inner: object, clock: list[float]) -> None:
        self.inner = inner
        self.clock = clock

    def vectorize(self, text: str) -> np.ndarray:
        self.clock[0] += 5.0
        return self.inner.vectorize(text)  # type: ignore[attr-defined,no-any-return]

    def search(
        self, query_vector: np.ndarray, top_k: int, allowed: set[str] | None = None
    ) -> list[Candidate]:
        return self.inner.search(query_vector, top_k, allowed)  # type: ignore[attr-defined,no-any-return]


@pytest.mark.parametrize("strategy", ["hybrid", "semantic"])
def test_raising_vector_searcher_degrades(small_en_index: DeviceIndex, strategy: str) -> None:
    res = search(small_en_index, "desk lamp", strategy=strategy, vector_searcher=RaisingSearcher())
    assert res.degraded == [{"code": "SEMANTIC_UNAVAILABLE", "fallback": "keyword"}]
    assert res.results and res.results[0].entity_id in {"light.bedroom_desk", "light.office_desk"}
    assert all(h.score_breakdown["semantic"] == 0.0 for h in res.results)
    assert res.meta["effective_strategy"] == "keyword"


def test_slow_vector_searcher_times_out(small_en_index: DeviceIndex) -> None:
    fake = [0.0]
    slow = SlowSearcher(small_en_index.vectors, fake)
    res = search(
        small_en_index,
        "desk lamp",
        vector_searcher=slow,
        semantic_timeout=2.0,
        clock=lambda: fake[0],
    )
    assert res.degraded == [{"code": "SEARCH_TIMEOUT", "fallback": "keyword"}]
    assert all(h.score_breakdown["semantic"] == 0.0 for h in res.results)
    assert res.results[0].score_breakdown["keyword"] == 1.0
    fast = search(
        small_en_index,
        "desk lamp",
        vector_searcher=slow,
        semantic_timeout=10.0,
        clock=lambda: fake[0],
    )
    assert fast.degraded == []
    assert fast.results[0].score_breakdown["semantic"] > 0


@pytest.mark.parametrize(
    "query",
    [
        "",
        "   ",
        "\u200b\u200b",
        "\n\t",
    ],
)
def test_empty_query_is_empty(small_en_index: DeviceIndex, query: str) -> None:
    res = search(small_en_index, query)
    assert res.results == [] and res.total == 0 and not res.has_more


@pytest.mark.parametrize(
    "query",
    [
        "x" * 10_000,
        "desk lamp " * 1000,
        "\u202edesk lamp\u202c",
        "de\u200bsk\u200d la\ufeffmp",
        "💡🔥 desk lamp 🛋️" * 50,
        "[[desk]] ]]lamp[[",
        "\x00\x1f\ud800 lamp",
        "灯" * 5000,
    ],
)
def test_hostile_queries_never_raise(small_en_index: DeviceIndex, query: str) -> None:
    res = search(small_en_index, query)
    json.dumps(res.as_dict())
    for hit in res.results:
        assert hit.entity_id in small_en_index


def test_invisible_chars_still_match(small_en_index: DeviceIndex) -> None:
    res = search(small_en_index, "\u202eIsland\u200b Pendants\u202c")
    assert res.results[0].entity_id == "light.kitchen_island"


def test_marking_escapes_brackets_in_names() -> None:
    assert mark("Lamp [[x]]", "lamp") == "[[Lamp]] \\[\\[x\\]\\]"
    assert mark("a\\b", "zz") == "a\\\\b"
    marked = mark("[[evil]] lamp", "evil")
    assert marked == "\\[\\[[[evil]]\\]\\] lamp"


def test_bracket_name_and_redaction(lexicons: object) -> None:
    devices = [
        make_device("light.trick", "]] Desk [[ Lamp"),
        make_device("light.secret", "Lamp sk-live-ABCDEF1234567890abcdef call +1 415 555 0100"),
    ]
    index = DeviceIndex.build(devices, language="en")
    res = search(index, "lamp", min_score=0.0)
    by_id = {h.entity_id: h for h in res.results}
    trick = by_id["light.trick"]
    assert trick.matched == "\\]\\] Desk \\[\\[ [[Lamp]]"
    secret = by_id["light.secret"]
    assert "ABCDEF1234567890" not in secret.name
    assert "ABCDEF1234567890" not in secret.matched
    assert "555" not in json.dumps(res.as_dict())


def test_as_dict_is_json_safe(demo_index: DeviceIndex) -> None:
    res = search(demo_index, "吸顶灯", recency={"light.kitchen_ceiling": float("nan")}, now=NOW)
    data = json.loads(json.dumps(res.as_dict(), allow_nan=False))
    assert data["strategy"] == "hybrid"
    assert set(data["results"][0]["score_breakdown"]) == {"keyword", "semantic", "recency"}
    assert data["results"][0]["matched"].startswith("[[")


def test_large_home_respects_caps() -> None:

    home = home_from_dict(make_home(2000, "en", 1))
    index = DeviceIndex.build(home.devices, home.areas, home.floors, language=home.language)
    assert len(index) == 2000
    started = time.perf_counter()
    res = search(index, "light", min_score=0.0, page_size=50)
    elapsed = time.perf_counter() - started
    assert res.meta["candidates"] <= 2 * MAX_PER_SIDE <= MAX_CANDIDATES
    assert res.total <= 2 * MAX_PER_SIDE
    assert len(res.results) == 50 and res.has_more
    assert elapsed < 5.0
    kw = search(index, "light", strategy="keyword", min_score=0.0)
    assert kw.total <= MAX_PER_SIDE
    sem = search(index, "light", strategy="semantic", min_score=0.0)
    assert sem.total <= MAX_PER_SIDE
    # Paging through the whole result never repeats an entity.
    seen: list[str] = []
    page = 1
    while True:
        chunk = search(index, "light", min_score=0.0, page_size=50, page=page)
        seen += [h.entity_id for h in chunk.results]
        if not chunk.has_more:
            break
        page += 1
    assert len(seen) == len(set(seen)) == res.total


# ---- whole words ----------------------------------------------------------------------------


def test_a_chinese_word_inside_a_longer_word_ranks_far_below_the_word(
    demo_index: DeviceIndex,
) -> None:
    """ "台灯" (desk lamp) is in 老台灯 (old desk lamp) as a word, in 阳台灯 (balcony light)
    only across the room word 阳台."""
    res = search(demo_index, "台灯", strategy="keyword", page_size=50)
    by_id = {h.entity_id: h.score for h in res.results}
    assert by_id["light.study_old_lamp"] > 0.8
    assert by_id["light.balcony_light"] <= 0.4 * by_id["light.study_old_lamp"] + 1e-9
    ranked = [h.entity_id for h in res.results]
    assert ranked.index("light.study_old_lamp") < ranked.index("light.balcony_light")


def test_inside_a_word_only_when_the_match_cuts_through_a_known_word() -> None:
    assert cjk_occurrence("阳台灯", "台灯", ["阳台"]) == "inside"
    assert cjk_occurrence("老台灯", "台灯", ["阳台"]) == "whole"
    assert cjk_occurrence("阳台台灯", "台灯", ["阳台"]) == "whole"  # the second one is whole
    assert cjk_occurrence("客厅灯", "台灯", ["阳台"]) == ""
    # A room word inside the match, or the match inside a room word, cuts nothing.
    assert cjk_occurrence("阳台灯", "阳台灯", ["阳台"]) == "whole"
    assert cjk_occurrence("阳台灯", "阳台", ["阳台"]) == "whole"
    # Every occurrence is looked at, one starting a character after the last included:
    # 台台 at 1 cuts 阳台, at 2 it cuts nothing.
    assert cjk_occurrence("阳台台台", "台台", ["阳台"]) == "whole"
    assert cjk_occurrence("阳台台", "台台", ["阳台"]) == "inside"


def test_no_hit_above_half_shares_no_word_with_the_query(demo_index: DeviceIndex) -> None:
    """ "desk lamp" once found a smoke alarm and 'dinner mode': characters in common are no
    shared word."""
    for query in ("desk lamp", "台灯", "reading light", "smoke alarm"):
        res = search(demo_index, query, page_size=50)
        for hit in res.results:
            if hit.score > 0.5:
                assert _fit(demo_index, hit.entity_id, query).factor == 1.0, (query, hit)
    res = search(demo_index, "desk lamp", strategy="keyword", page_size=50)
    smoke = [h for h in res.results if h.entity_id == "binary_sensor.kitchen_smoke"]
    assert not smoke or smoke[0].score <= NO_SHARED_WORD_FACTOR * 0.7


@pytest.mark.parametrize(
    ("said", "word", "same"),
    [
        ("lamp", "lamp", True),
        ("lmap", "lamp", False),  # 4 letters, two swapped: short words must be equal
        ("ceilng", "ceiling", True),  # a dropped letter in a long word
        ("fan", "fun", False),  # shorter than NEAR_WORD_MIN_LEN: exact only
        ("desk", "dusk", False),  # 4 letters, one changed
        ("lights", "light", True),  # one letter more, the longer has 6
        ("lamps", "lamp", True),  # the longer has exactly NEAR_WORD_MIN_LEN letters
        ("lamsp", "lamps", True),  # two letters swapped
        ("lamparita", "lampara", False),  # two letters more: another word
        ("kitchen", "kitten", False),  # two slips
    ],
)
def test_near_spellings_of_a_word_count_as_the_word(said: str, word: str, same: bool) -> None:
    assert same_word(said, word) is same


def test_a_stretch_of_the_query_that_cuts_its_own_room_word_is_no_word(
    demo_index: DeviceIndex,
) -> None:
    """ "阳台灯" (balcony light) holds 台灯 (desk lamp) only across 阳台: a desk lamp shares
    its 灯 (the stretch after the room word), never 台灯, while "书房的台灯" (the study's desk
    lamp) holds 台灯 whole."""
    kids = _fit(demo_index, "light.kids_desk_lamp", "阳台灯")
    assert kids.coverage == pytest.approx(1 / 3)
    assert _fit(demo_index, "light.kids_desk_lamp", "书房的台灯").factor == 1.0
    assert _fit(demo_index, "light.balcony_light", "阳台灯").coverage == 1.0
    hits = search(demo_index, "阳台灯", page_size=50).results
    assert hits[0].entity_id == "light.balcony_light"
    assert all(h.score <= 0.5 for h in hits if "desk_lamp" in h.entity_id)


def test_the_rest_of_a_query_that_names_a_room_names_its_devices(
    demo_index: DeviceIndex,
) -> None:
    """ "厨房的灯" (the kitchen's lights): the kitchen's lights, named 吸顶灯 and 橱柜灯 without
    the room, come before the kitchen's leak sensor 厨房水浸, which holds only the room word
    (it came first); likewise "kitchen light"."""
    top = [h.entity_id for h in search(demo_index, "厨房的灯").results[:2]]
    assert set(top) == {"light.kitchen_ceiling", "light.kitchen_cabinet"}
    assert _fit(demo_index, "light.kitchen_ceiling", "厨房的灯").coverage == 1.0
    assert _fit(demo_index, "binary_sensor.kitchen_leak", "厨房的灯").coverage == pytest.approx(
        2 / 3
    )
    ranked = [h.entity_id for h in search(demo_index, "kitchen light").results]
    assert ranked.index("light.kitchen_cabinet") < ranked.index("binary_sensor.kitchen_leak")
    assert read_query(demo_index, normalize("厨房的灯")).rest == "灯"
    assert read_query(demo_index, normalize("the light in the kitchen")).rest == "light"
    assert read_query(demo_index, normalize("台灯")).rest == ""  # no room named


def test_entities_outside_the_room_the_query_names_count_less(demo_index: DeviceIndex) -> None:
    assert named_rooms(demo_index, normalize("书房的台灯")) == {"study"}
    assert _fit(demo_index, "light.study_old_lamp", "书房的台灯").place == 1.0
    assert _fit(demo_index, "light.kids_desk_lamp", "书房的台灯").place == OTHER_ROOM_FACTOR
    assert _fit(demo_index, "light.kids_desk_lamp", "台灯").place == 1.0
    assert named_rooms(demo_index, normalize("the desk lamp in the kids room")) == {"kids_room"}
    # Latin names as whole words: "study" is not in "studying".
    assert named_rooms(demo_index, normalize("studying lamp")) == set()


def test_the_entity_that_holds_more_of_the_query_ranks_first(demo_index: DeviceIndex) -> None:
    """ "书房的台灯" (the study's desk lamp): 老台灯 in the study holds both words, the other
    rooms' 台灯 and the study's panel light one each; 的 only ties them and counts for none."""
    assert _fit(demo_index, "light.study_old_lamp", "书房的台灯").coverage == 1.0
    assert _fit(demo_index, "light.kids_desk_lamp", "书房的台灯").coverage == pytest.approx(2 / 4)
    assert _fit(demo_index, "light.kids_desk_lamp", "desk lamp").coverage == 1.0
    assert _fit(demo_index, "binary_sensor.kitchen_smoke", "desk lamp").coverage == 0.0
    res = search(demo_index, "书房的台灯")
    assert res.results[0].entity_id == "light.study_old_lamp"


def _french_home() -> DeviceIndex:
    salon = Area("salon", "Salon")
    devices = [
        make_device("media_player.tv", "Télé du salon", salon),
        make_device("binary_sensor.leak", "Détecteur de fuite", salon),
        make_device("lock.door", "Serrure de la porte", salon),
        make_device("light.reading", "Lampe de lecture", salon),
        make_device("light.desk", "Lampe du bureau", salon),
    ]
    return DeviceIndex.build(devices, [salon], language="fr")


def test_a_word_typed_without_its_accents_is_the_word() -> None:
    """ "tele" is how many type "télé": before, the leak sensor (fui-te) ranked first and the
    TV, matched by characters only, last."""
    index = _french_home()
    res = search(index, "tele", page_size=50)
    assert res.results[0].entity_id == "media_player.tv"
    assert res.results[0].matched == "[[Télé]] du salon"
    assert res.results[0].score > 0.5
    assert all(h.score <= 0.5 for h in res.results[1:])
    assert _fit(index, "media_player.tv", "tele").factor == 1.0
    assert _fit(index, "binary_sensor.leak", "tele").factor == NO_SHARED_WORD_FACTOR


def test_accent_folded_words_follow_the_home() -> None:
    index = _french_home()
    assert index.accent_folded_words()["tele"] == {"media_player.tv"}
    assert "lampe" not in index.accent_folded_words()  # written without accents anyway
    index.upsert(make_device("media_player.tv", "Écran du salon", Area("salon", "Salon")))
    assert "tele" not in index.accent_folded_words()
    assert index.accent_folded_words()["ecran"] == {"media_player.tv"}


def test_function_words_are_no_shared_word() -> None:
    """ "de" ties "lampe de lecture" together and names nothing: the desk lamp, which shares
    only "lampe", holds half of what is asked, not two thirds; the leak sensor nothing."""
    index = _french_home()
    assert _fit(index, "binary_sensor.leak", "lampe de lecture").factor == NO_SHARED_WORD_FACTOR
    assert _fit(index, "light.desk", "lampe de lecture").coverage == pytest.approx(5 / 12)
    assert _fit(index, "light.reading", "lampe de lecture").coverage == 1.0
    # A query of function words only still looks for them.
    assert _fit(index, "binary_sensor.leak", "de").factor == 1.0
    hit = next(h for h in search(index, "lampe de lecture").results if h.entity_id == "light.desk")
    assert "[[du]]" not in hit.matched and "[[de]]" not in hit.matched


def test_an_entity_of_another_kind_than_the_query_names_counts_less(
    demo_index: DeviceIndex,
) -> None:
    """ "落地灯" (floor lamp) names a light: the floor fan 落地扇 shares 落地 (floor-standing)
    and scored 0.52, like a match; now a fifth less. A query naming no kind weighs none."""
    assert _fit(demo_index, "fan.master_bedroom_fan", "落地灯").kind == OTHER_KIND_FACTOR
    assert _fit(demo_index, "light.ke_ting_luo_di_deng", "落地灯").kind == 1.0
    assert _fit(demo_index, "fan.master_bedroom_fan", "主卧").kind == 1.0
    hits = {h.entity_id: h.score for h in search(demo_index, "落地灯", page_size=50).results}
    assert hits.get("fan.master_bedroom_fan", 0.0) <= 0.5
    assert read_query(demo_index, normalize("desk lamp")).kinds >= {"light"}
    assert _fit(demo_index, "binary_sensor.kitchen_smoke", "desk lamp").kind == OTHER_KIND_FACTOR


def test_a_query_of_exactly_the_longest_length_is_not_cut(demo_index: DeviceIndex) -> None:
    longest = "lamp " * (MAX_QUERY_CHARS // 5) + "x" * (MAX_QUERY_CHARS % 5)
    assert len(longest) == MAX_QUERY_CHARS
    assert "query_truncated" not in search(demo_index, longest).meta
    assert search(demo_index, longest + "y").meta["query_truncated"] is True


def _home(language: str) -> DeviceIndex:
    home = load_home(Path(__file__).parent.parent / "data" / "homes" / f"home_{language}.json")
    return DeviceIndex.build(home.devices, home.areas, home.floors, language=home.language)


def test_a_room_said_in_another_inflection_is_the_room() -> None:
    """ "свет на кухне" (the light in the kitchen, locative) names the room "Кухня": the
    kitchen's ceiling light comes first, before the kitchen speaker whose name holds кухне."""
    ru = _home("ru")
    assert named_rooms(ru, normalize("свет на кухне"), [ru.lexicons.get("ru")]) == {"kuhnya"}
    assert search(ru, "свет на кухне").results[0].entity_id == "light.kuhnya_verhniy"
    pl = _home("pl")
    assert search(pl, "lampa w kuchni").results[0].entity_id == "light.kuchnia_sufit"


def test_letters_people_type_plain_are_found() -> None:
    """ "елка" is how most Russians type "Ёлка"; "lazienka" is "Łazienka" without its stroke."""
    ru = _home("ru")
    top = search(ru, "елка").results[0]
    assert top.entity_id == "switch.gostinaya_yolka" and top.score > 0.5
    assert top.matched == "[[Ёлка]]"
    pl = _home("pl")
    assert {h.entity_id for h in search(pl, "lazienka").results[:2]} == {
        "light.lazienka_lustro",
        "fan.lazienka_wentylator",
    }


def test_a_query_of_several_words_marks_each_word_it_finds() -> None:
    """The whole query where it stands together, else each word of two letters or more where
    it is (one-letter words and the words in `skip` mark nothing on their own), else the
    closest stretch."""
    assert mark("Desk Lamp", "desk lamp") == "[[Desk Lamp]]"
    assert mark("Lamp on the desk", "desk lamp") == "[[Lamp]] on the [[desk]]"
    assert mark("a lamp", "a lamp x") == "a [[lamp]]"
    assert mark("Lampe de lecture", "lampe de x", frozenset({"de"})) == "[[Lampe]] de lecture"
    assert mark("Lampe de lecture", "lampe de x") == "[[Lampe]] [[de]] lecture"
    assert mark("Télé du salon", "tele") == "[[Télé]] du salon"
    assert mark("Ceiling", "zzzz") == "Ceiling"


class _TopOnly:
    """A searcher whose best hits leave out one keyword candidate, which it scores when asked
    for it alone; every call moves a fake clock by `step` seconds."""

    def __init__(self, clock: list[float], step: float) -> None:
        self.clock, self.step = clock, step
        self.asked: list[set[str] | None] = []

    def vectorize(self, text: str) -> np.ndarray:
        self.clock[0] += self.step
        return np.ones(4, dtype=np.float32)

    def search(
        self, query_vector: np.ndarray, top_k: int, allowed: set[str] | None = None
    ) -> list[Candidate]:
        self.asked.append(allowed)
        if allowed is None:
            return [Candidate("light.top", vector_score=0.9)]
        return [Candidate(e, vector_score=0.4) for e in sorted(allowed)]


def test_a_keyword_candidate_below_the_best_hits_still_gets_its_cosine() -> None:
    """Within the time allowed (to the limit itself), the keyword candidates the vector side's
    best hits left out are scored on their own; past it they are not asked for."""
    clock = [0.0]
    on_time = _TopOnly(clock, step=2.0)
    scores = semantic_recall(on_time, "desk", ["light.kw"], timeout=2.0, clock=lambda: clock[0])
    assert scores == {"light.top": 0.9, "light.kw": 0.4}
    assert on_time.asked == [None, {"light.kw"}]
    clock[0] = 0.0
    late = _TopOnly(clock, step=2.5)
    with pytest.raises(SemanticFailure):
        semantic_recall(late, "desk", ["light.kw"], timeout=2.0, clock=lambda: clock[0])
    assert late.asked == [None]


def test_the_retrieve_breakdown_is_on_the_search_scale() -> None:
    """`explain` puts retrieve's candidates on search's scale: keyword over the best of them,
    semantic clipped to [0, 1], recency fading over a day, and the 0.55 / 0.35 / 0.10 sum."""
    now = 1_000_000.0
    candidates = [
        Candidate("light.a", keyword_score=4.0, vector_score=1.5),
        Candidate("light.b", keyword_score=2.0, vector_score=0.5),
        Candidate("light.c", keyword_score=0.0, vector_score=-0.3),
    ]
    table = explain(candidates, {"light.b": now - 6 * 3600, "light.c": now + 5}, now)
    assert table["light.a"] == {"keyword": 1.0, "semantic": 1.0, "recency": 0.0, "score": 0.9}
    assert table["light.b"] == {"keyword": 0.5, "semantic": 0.5, "recency": 0.75, "score": 0.525}
    assert table["light.c"] == {"keyword": 0.0, "semantic": 0.0, "recency": 1.0, "score": 0.1}


def test_the_retrieve_breakdown_without_any_keyword_score_is_semantic_alone() -> None:
    candidates = [
        Candidate("light.a", keyword_score=0.0, vector_score=0.8),
        Candidate("light.b", keyword_score=float("nan"), vector_score=0.4),
    ]
    table = explain(candidates, None, 0.0)
    assert {e: row["keyword"] for e, row in table.items()} == {"light.a": 0.0, "light.b": 0.0}
    assert {e: row["score"] for e, row in table.items()} == {"light.a": 0.28, "light.b": 0.14}


def test_the_retrieve_breakdown_keeps_four_decimals_and_any_positive_keyword_top() -> None:
    """A best keyword score below one still normalises (0.3 of 0.9 is a third); each figure is
    rounded to four decimals."""
    now = 1_000_000.0
    candidates = [
        Candidate("light.a", keyword_score=0.9, vector_score=0.123456),
        Candidate("light.b", keyword_score=0.3, vector_score=0.0),
    ]
    table = explain(candidates, {"light.a": now - 10_000.0}, now)
    assert table["light.a"] == {
        "keyword": 1.0,
        "semantic": 0.1235,
        "recency": 0.8843,
        "score": 0.6816,
    }
    assert table["light.b"] == {"keyword": 0.3333, "semantic": 0.0, "recency": 0.0, "score": 0.1833}


@pytest.mark.parametrize(
    "when", [1_000_000.0 - 2 * 86_400, float("inf"), float("nan"), "yesterday", None]
)
def test_recency_older_than_a_day_or_unreadable_adds_nothing(when: object) -> None:
    now = 1_000_000.0
    table = explain([Candidate("light.a", keyword_score=1.0)], {"light.a": when}, now)  # type: ignore[dict-item]
    assert table["light.a"]["recency"] == 0.0 and table["light.a"]["score"] == 0.55


@pytest.mark.parametrize("strategy", ["hybrid", "keyword", "semantic"])
def test_every_part_of_a_hit_s_breakdown_is_given_to_six_decimals(
    small_en_index: DeviceIndex, strategy: str
) -> None:
    """What the panel shows is what the score was summed from: six decimals each."""
    recency = {"light.office_desk": NOW - 7 * 3607}
    res = search(small_en_index, "desk lmp bedroom", strategy=strategy, recency=recency, now=NOW)
    parts = [v for h in res.results for v in h.score_breakdown.values()]
    assert parts and any(v not in (0.0, 1.0) for v in parts)
    assert all(round(v, 6) == v for v in parts), parts


@pytest.mark.parametrize(("page", "used"), [("x", 1), (None, 1), (-3, 1), (0, 1), (1, 1), (2, 2)])
def test_a_page_that_is_no_positive_number_is_the_first(
    demo_index: DeviceIndex, page: object, used: int
) -> None:
    res = search(demo_index, "灯", min_score=0.0, page=page, page_size=2)  # type: ignore[arg-type]
    first = search(demo_index, "灯", min_score=0.0, page=used, page_size=2)
    assert res.page == used
    assert [h.entity_id for h in res.results] == [h.entity_id for h in first.results]


@pytest.mark.parametrize(
    ("size", "used"), [("x", 20), (None, 20), (0, 1), (-5, 1), (1, 1), (50, 50), (51, 50)]
)
def test_a_page_size_is_twenty_unless_given_and_between_one_and_fifty(
    demo_index: DeviceIndex, size: object, used: int
) -> None:
    res = search(demo_index, "灯", min_score=0.0, page_size=size)  # type: ignore[arg-type]
    assert res.page_size == used
    assert len(res.results) == min(used, res.total)


def test_an_area_named_in_punctuation_is_in_no_query() -> None:
    # Its name held no word, and "no word" was found in every query: every search was
    # about that room.
    bangs, kitchen = Area("bangs", "!!"), Area("kitchen", "Kitchen")
    index = DeviceIndex.build(
        [make_device("light.k", "Ceiling", kitchen), make_device("light.b", "Lamp", bangs)],
        [bangs, kitchen],
        language="en",
    )
    assert named_rooms(index, normalize("kitchen ceiling")) == {"kitchen"}
