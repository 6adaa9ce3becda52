"""core/base/vector_search.py: hashed n-gram vectors and the in-memory cosine index."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from custom_components.context_retrieval.core.base.models import ReasonCode
from custom_components.context_retrieval.core.base.text import normalize
from custom_components.context_retrieval.core.base.vector_search import (
    SHORT_TEXT,
    HashingVectorizer,
    InMemoryVectorSearcher,
    VectorSearcher,
    _in_bucket_order,
    _is_cjk_code,
)

ROOT = Path(__file__).resolve().parents[3]

NAMES = {
    "light.kitchen": "kitchen light",
    "fan.kitchen": "kitchen fan",
    "light.bedroom": "bedroom lamp",
    "cover.garage": "garage door",
    "light.zh_floor": "客厅落地灯",
    "light.zh_ceiling": "吸顶灯",
}


def build(names: dict[str, str] = NAMES) -> InMemoryVectorSearcher:
    return InMemoryVectorSearcher.build((eid, normalize(text)) for eid, text in names.items())


def top(
    searcher: InMemoryVectorSearcher, query: str, k: int = 10, allowed: set[str] | None = None
) -> list[str]:
    return [c.entity_id for c in searcher.search(searcher.vectorize(query), k, allowed)]


# ---- vectors --------------------------------------------------------------------------------


def test_vectors_are_identical_across_instances():
    a, b = HashingVectorizer(), HashingVectorizer()
    for text in ("kitchen light", "客厅落地灯", "pm2.5"):
        assert np.array_equal(a.vectorize(text), b.vectorize(text))


def test_vectors_are_identical_across_processes():
    # Indexes may be stored or compared between runs: Python's salted hash() must not leak in.
    code = (
        "from custom_components.context_retrieval.core.base.vector_search import "
        "HashingVectorizer;"
        "v = HashingVectorizer().vectorize('客厅落地灯 kitchen light');"
        "print(','.join(str(i) for i in v.nonzero()[0]))"
    )
    outputs = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        outputs.add(run.stdout.strip())
    here = ",".join(
        str(i) for i in HashingVectorizer().vectorize("客厅落地灯 kitchen light").nonzero()[0]
    )
    assert outputs == {here}


def test_vectors_are_unit_length():
    vec = HashingVectorizer().vectorize("Living Room Lamp")
    assert np.linalg.norm(vec) == pytest.approx(1.0, abs=1e-5)


def test_empty_text_gives_a_zero_vector():
    vec = HashingVectorizer().vectorize("")
    assert not vec.any()


def test_vectorize_normalises_like_the_rest_of_the_engine():
    v = HashingVectorizer()
    assert np.array_equal(v.vectorize("KITCHEN  Light"), v.vectorize("kitchen light"))
    assert np.array_equal(v.vectorize("客廳落地燈"), v.vectorize("客厅落地灯"))


@pytest.mark.parametrize(
    "text",
    ["kitchen light", "客厅 lamp 2", "a  b", "   ", "", "x", "ab", "キッチン", "뒷마당 조명"],
)
def test_one_text_gets_the_row_it_gets_among_many(text: str) -> None:
    """A query is vectorised on its own, names many at a time: the same text, the same vector
    (spaces included, and with or without CJK characters)."""
    v = HashingVectorizer()
    many = v.vectorize_many(["garage door", text, "客厅落地灯"])
    assert np.array_equal(v.vectorize(text, already_normalized=True), many[1])


def test_short_texts_hash_in_python_to_the_buckets_numpy_gives() -> None:
    """A short query is hashed gram by gram in Python, a long one in numpy: every text, at
    every length around the switch, spaces, separators and CJK edges included, gets the same
    buckets both ways, and `vectorize` takes the Python way exactly up to `SHORT_TEXT`."""
    rng = np.random.default_rng(3)
    letters = [" ", "a", "z", "é", "0", "\x00", "\u303f", "\u3040", "\u30ff", "\u3100"]
    letters += ["\u4e00", "\ua000", "\uac00", "\ud7b0", "\U00020000", "\U0002a6e0", "\U0001f600"]
    v = HashingVectorizer()
    for _ in range(3000):
        padded = " " + "".join(rng.choice(letters, size=int(rng.integers(0, 45)))) + " "
        assert sorted(v._few_buckets(padded)) == sorted(v._buckets(v._codes(padded))[0].tolist())
    calls: list[str] = []
    few = v._few_buckets
    v._few_buckets = lambda padded: calls.append(padded) or few(padded)  # type: ignore[method-assign]
    v.vectorize("x" * (SHORT_TEXT - 2), already_normalized=True)
    v.vectorize("x" * (SHORT_TEXT - 1), already_normalized=True)
    assert calls == [" " + "x" * (SHORT_TEXT - 2) + " "]


def test_cjk_blocks_begin_and_end_where_unicode_puts_them() -> None:
    blocks = [(0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xAC00, 0xD7AF)]
    blocks += [(0xF900, 0xFAFF), (0x20000, 0x2A6DF)]
    inside = [c for first, last in blocks for c in (first, last)]
    outside = [c for first, last in blocks for c in (first - 1, last + 1)] + [0, 32, 0x2FFFF]
    codes = np.array(inside + outside, dtype=np.uint64)
    assert _is_cjk_code(codes).tolist() == [True] * len(inside) + [False] * len(outside)


def test_buckets_are_summed_in_order_whatever_the_shape() -> None:
    """Scores are summed bucket after bucket, to the last bit, for one column as for many (a
    single column is where numpy would otherwise add pairwise)."""
    rng = np.random.default_rng(7)
    for rows, columns in [(0, 3), (1, 1), (40, 1), (150, 1), (150, 2), (90, 3), (120, 700)]:
        block = rng.random((rows, columns)).astype(np.float32) * np.float32(0.37)
        expected = np.zeros(columns, dtype=np.float32)
        for row in block:
            expected += row
        assert _in_bucket_order(block).tobytes() == expected.tobytes()


def test_custom_dimension():
    assert HashingVectorizer(dim=64).vectorize("lamp").shape == (64,)


def test_in_memory_searcher_satisfies_the_pluggable_protocol():
    assert isinstance(InMemoryVectorSearcher(), VectorSearcher)


# ---- search ---------------------------------------------------------------------------------


def test_same_text_is_the_best_match_with_similarity_one():
    searcher = build()
    result = searcher.search(searcher.vectorize("kitchen light"), 3)
    assert result[0].entity_id == "light.kitchen"
    assert result[0].vector_score == pytest.approx(1.0, abs=1e-5)


def test_results_are_ordered_by_cosine_similarity():
    searcher = build()
    result = searcher.search(searcher.vectorize("kitchen light"), 10)
    scores = [c.vector_score for c in result]
    assert scores == sorted(scores, reverse=True)
    order = [c.entity_id for c in result]
    assert order.index("fan.kitchen") < order.index("cover.garage")


def test_scores_are_cosines_of_the_vectors():
    searcher = build()
    q = searcher.vectorize("kitchen lamp")
    expected = {
        eid: float(np.dot(searcher.vectorizer.vectorize(normalize(t)), q))
        for eid, t in NAMES.items()
    }
    for eid, s in searcher.scores(q).items():
        assert s == pytest.approx(expected[eid], abs=1e-5)


def test_typo_is_rescued():
    assert top(build(), "kitchn lihgt", 1) == ["light.kitchen"]


def test_chinese_partial_name_is_found():
    assert top(build(), "落地灯", 1) == ["light.zh_floor"]


def test_top_k_limits_the_result():
    searcher = build()
    assert len(searcher.search(searcher.vectorize("light"), 2)) == 2
    assert searcher.search(searcher.vectorize("light"), 0) == []


def test_top_k_larger_than_the_index_is_fine():
    searcher = build()
    assert len(searcher.search(searcher.vectorize("kitchen light"), 1000)) <= len(NAMES)


def test_only_positive_similarities_are_returned():
    searcher = build()
    assert all(c.vector_score > 0 for c in searcher.search(searcher.vectorize("lamp"), 100))


def test_candidates_explain_their_score():
    searcher = build()
    cand = searcher.search(searcher.vectorize("kitchen light"), 1)[0]
    assert cand.breakdown["vector"] == pytest.approx(cand.vector_score)
    assert cand.reasons and cand.reasons[0].code is ReasonCode.VECTOR
    assert cand.reasons[0].score == pytest.approx(cand.vector_score)
    assert str(cand.reasons[0]) == f"vector similarity {cand.vector_score:.2f}"


def test_allowed_restricts_the_search():
    searcher = build()
    result = top(searcher, "kitchen light", 10, allowed={"light.bedroom", "cover.garage"})
    assert result
    assert set(result) <= {"light.bedroom", "cover.garage"}


def test_allowed_empty_set_finds_nothing():
    searcher = build()
    assert top(searcher, "kitchen light", 10, allowed=set()) == []


def test_allowed_best_match_is_found_even_with_top_one():
    searcher = build()
    assert top(searcher, "kitchen light", 1, allowed={"light.bedroom"}) == ["light.bedroom"]


# ---- updates --------------------------------------------------------------------------------


def test_upsert_of_an_existing_entity_replaces_its_vector():
    searcher = build()
    searcher.upsert("light.bedroom", normalize("reading lamp"))
    assert len(searcher) == len(NAMES)
    assert top(searcher, "reading lamp", 1) == ["light.bedroom"]
    old_name = searcher.scores(searcher.vectorize("bedroom lamp"))["light.bedroom"]
    assert old_name < 0.7  # the old name no longer matches as itself


def test_upsert_adds_a_new_entity():
    searcher = build()
    searcher.upsert("light.porch", normalize("porch light"))
    assert len(searcher) == len(NAMES) + 1
    assert top(searcher, "porch light", 1) == ["light.porch"]


def test_remove_of_a_middle_row_keeps_every_other_entity_findable():
    searcher = build()
    searcher.remove("fan.kitchen")  # the second row: the last row moves into its place
    assert len(searcher) == len(NAMES) - 1
    for eid, text in NAMES.items():
        if eid == "fan.kitchen":
            continue
        result = searcher.search(searcher.vectorize(text), 1)
        assert result[0].entity_id == eid
        assert result[0].vector_score == pytest.approx(1.0, abs=1e-5)
    assert "fan.kitchen" not in top(searcher, "kitchen fan", 100)
    assert "fan.kitchen" not in searcher.scores(searcher.vectorize("kitchen fan"))


def test_remove_then_add_back():
    searcher = build()
    searcher.remove("light.kitchen")
    searcher.upsert("light.kitchen", normalize("kitchen light"))
    assert top(searcher, "kitchen light", 1) == ["light.kitchen"]
    assert len(searcher) == len(NAMES)


def test_remove_unknown_entity_is_harmless():
    searcher = build()
    searcher.remove("light.nope")
    assert len(searcher) == len(NAMES)


def test_remove_everything_leaves_an_empty_index():
    searcher = build()
    for eid in NAMES:
        searcher.remove(eid)
    assert len(searcher) == 0
    assert searcher.search(searcher.vectorize("kitchen light"), 5) == []


def test_growth_past_capacity_keeps_every_row():
    searcher = build({"light.first": "first lamp"})
    for i in range(100):
        searcher.upsert(f"sensor.s{i}", normalize(f"sensor number {i} probe"))
    assert len(searcher) == 101
    assert top(searcher, "first lamp", 1) == ["light.first"]
    for i in (0, 17, 64, 99):
        assert top(searcher, f"sensor number {i} probe", 1) == [f"sensor.s{i}"]


def test_growth_then_removal_stays_consistent():
    searcher = InMemoryVectorSearcher()
    for i in range(40):
        searcher.upsert(f"e{i}", normalize(f"device {i} alpha"))
    for i in range(0, 40, 3):
        searcher.remove(f"e{i}")
    remaining = {f"e{i}" for i in range(40) if i % 3}
    assert len(searcher) == len(remaining)
    assert set(searcher.scores(searcher.vectorize("device"))) == remaining
    for i in (1, 20, 38):
        assert top(searcher, f"device {i} alpha", 1) == [f"e{i}"]


# ---- empty index ----------------------------------------------------------------------------


def test_empty_index():
    searcher = InMemoryVectorSearcher()
    assert len(searcher) == 0
    assert searcher.search(searcher.vectorize("kitchen light"), 5) == []
    assert searcher.scores(searcher.vectorize("kitchen light")) == {}


def test_build_from_nothing():
    searcher = InMemoryVectorSearcher.build([])
    assert len(searcher) == 0
    assert searcher.search(searcher.vectorize("lamp"), 5) == []
    searcher.upsert("light.a", "lamp")
    assert top(searcher, "lamp", 1) == ["light.a"]


# ---- scores_of: the scores of search without the ranking --------------------------------------


@pytest.mark.parametrize(
    ("query", "allowed"),
    [
        ("kitchen light", {"light.kitchen", "fan.kitchen", "light.bedroom"}),
        ("客厅灯", {"light.zh_floor", "light.zh_ceiling", "light.kitchen"}),
        ("kitchen", {"light.kitchen", "light.unknown"}),
    ],
)
def test_scores_of_gives_what_search_scores_above_zero(query: str, allowed: set[str]) -> None:
    searcher = build()
    vector = searcher.vectorize(query)
    ranked = searcher.search(vector, len(allowed), allowed)
    expected = {c.entity_id: c.vector_score for c in ranked if c.vector_score > 0.0}
    got = searcher.scores_of(vector, allowed)
    assert got.keys() == expected.keys()
    for entity_id, score in got.items():
        assert score == pytest.approx(expected[entity_id])
    assert all(score > 0.0 for score in got.values())


def test_scores_of_an_unrelated_query_or_unknown_ids_is_empty() -> None:
    searcher = build()
    assert searcher.scores_of(searcher.vectorize("zzzz qqqq"), {"light.kitchen"}) == {}
    assert searcher.scores_of(searcher.vectorize("kitchen"), {"light.nowhere"}) == {}


# ---- bucket_similarities: every score, kept in step with every update ----------------------


def _agrees_with_dot_products(
    searcher: InMemoryVectorSearcher, texts: dict[str, str], query: str
) -> None:
    """Every entity scores the dot product of its own vector with the query's."""
    vector = searcher.vectorize(query)
    got = searcher.bucket_similarities(vector)
    assert len(got) == len(searcher) == len(texts)
    by_id = dict(zip(searcher._ids, got.tolist(), strict=True))
    for entity_id, text in texts.items():
        own = searcher.vectorizer.vectorize(normalize(text), already_normalized=True)
        assert by_id[entity_id] == pytest.approx(float(own @ vector), abs=1e-6)
    assert searcher.scores(vector) == by_id
    rows = np.array([len(searcher) - 1, 0])
    assert searcher.bucket_similarities(vector, rows).tolist() == [got[-1], got[0]]


@pytest.mark.parametrize("query", ["kitchen light", "客厅灯", "garage", "zzzz"])
def test_bucket_similarities_are_the_cosines(query: str) -> None:
    _agrees_with_dot_products(build(), dict(NAMES), query)


def test_bucket_similarities_follow_upsert_remove_and_growth() -> None:
    searcher = build()
    texts = dict(NAMES)

    def upsert(entity_id: str, text: str) -> None:
        searcher.upsert(entity_id, normalize(text))
        texts[entity_id] = text

    def remove(entity_id: str) -> None:
        searcher.remove(entity_id)
        del texts[entity_id]

    steps = [
        lambda: upsert("light.kitchen", "pantry spotlight"),  # an existing row
        lambda: remove("fan.kitchen"),  # a middle row: the last one moves into it
        lambda: upsert("sensor.new", "probe 7 pantry"),  # into the spare room
        *((lambda i=i: upsert(f"sensor.s{i}", f"probe {i}")) for i in range(20)),  # growth
        lambda: remove("sensor.s19"),  # the last row
    ]
    for step in steps:
        step()
        for query in ("pantry spotlight", "kitchen fan", "probe 7", "客厅落地灯", "吸顶灯"):
            _agrees_with_dot_products(searcher, texts, query)
    assert searcher.shortlist(searcher.vectorize("pantry spotlight"), 1) == ["light.kitchen"]
    assert "fan.kitchen" not in searcher.shortlist(searcher.vectorize("kitchen fan"), 50)


def test_bucket_similarities_of_an_empty_index() -> None:
    searcher = InMemoryVectorSearcher()
    assert searcher.bucket_similarities(searcher.vectorize("lamp")).size == 0
    searcher = InMemoryVectorSearcher.build([])
    searcher.upsert("light.a", "lamp")
    assert searcher.bucket_similarities(searcher.vectorize("lamp")).tolist() == [pytest.approx(1.0)]


def test_a_few_rows_score_exactly_as_in_the_whole_home() -> None:
    searcher = InMemoryVectorSearcher.build(
        (f"sensor.s{i}", normalize(f"room {i} probe {i * 7 % 13} pantry")) for i in range(60)
    )
    vector = searcher.vectorize("probe 3 pantry room 12")
    whole = searcher.bucket_similarities(vector)
    for rows in ([12], [59, 0, 30], list(range(0, 60, 5)), list(range(40))):
        picked = np.array(rows)
        assert searcher.bucket_similarities(vector, picked).tolist() == whole[picked].tolist()
    scores = searcher.scores_of(vector, {"sensor.s12", "sensor.s3"})
    assert scores == {e: searcher.scores(vector)[e] for e in ("sensor.s12", "sensor.s3")}


def _reference(searcher: InMemoryVectorSearcher, text: str, top_k: int, allowed: set[str] | None):
    """Every allowed entity scored, best first, ties in row order, zeros left out."""
    sims = searcher.bucket_similarities(searcher.vectorize(text))
    rows = [r for r in range(len(searcher)) if allowed is None or searcher._ids[r] in allowed]
    ranked = sorted((r for r in rows if sims[r] > 0.0), key=lambda r: (-float(sims[r]), r))
    return [searcher._ids[r] for r in ranked[:top_k]]


@pytest.mark.parametrize("share", [0.02, 0.2, 0.3, 0.9, 1.0])
@pytest.mark.parametrize("top_k", [1, 3, 7, 60])
def test_ranking_of_a_large_home_matches_scoring_everything(share, top_k):
    """A few allowed ids are scored on their own; most of the home is scored whole and then
    checked from the top: both give exactly what scoring every allowed entity would, ties
    (many names are the same) in row order."""
    words = ["lamp", "light", "spot", "plug", "sensor", "fan", "lampe", "spotlight"]
    names = {f"e.{i}": f"{words[i % 8]} {words[(i * 7) % 8]} {i % 5}" for i in range(400)}
    searcher = build(names)
    pick = sorted(names)[: int(len(names) * share)]
    allowed = set(pick[::2]) | set(pick[-3:])
    for text in ("spot lamp 3", "sensor", "lmap", "zzz"):
        assert searcher.shortlist(searcher.vectorize(text), top_k, allowed) == _reference(
            searcher, text, top_k, allowed
        ), text
        assert [c.entity_id for c in searcher.search(searcher.vectorize(text), top_k, allowed)] == (
            _reference(searcher, text, top_k, allowed)
        )
    assert searcher.shortlist(searcher.vectorize("spot lamp 3"), top_k) == _reference(
        searcher, "spot lamp 3", top_k, None
    )


def test_allowed_ids_far_down_the_ranking_are_still_found():
    # Most of the home is allowed, but the best scores all belong to others: the check from
    # the top widens until it reaches the allowed ones.
    names = {f"a.{i:03}": "kitchen lamp" for i in range(400)}
    names |= {f"b.{i:03}": f"lamp zzz {i}" for i in range(300)}
    searcher = build(names)
    allowed = {e for e in names if e.startswith("b.")}
    got = searcher.shortlist(searcher.vectorize("kitchen lamp"), 3, allowed)
    assert len(got) == 3
    assert got == _reference(searcher, "kitchen lamp", 3, allowed)


@pytest.mark.parametrize("dim", [1000, 12289])
def test_short_and_long_texts_share_buckets_at_any_dimension(dim: int) -> None:
    """Not only a power of two: a dimension that does not divide 2**64 sees every bit of the
    wrapped 64-bit hash, so both ways must wrap it alike."""
    v = HashingVectorizer(dim)
    for text in ["kitchen light", "客厅 lamp 2", "\U0002a6df 灯", "zzzz ~~~~"]:
        padded = f" {text} "
        assert sorted(v._few_buckets(padded)) == sorted(v._buckets(v._codes(padded))[0].tolist())
    many = v.vectorize_many(["kitchen light", "garage door"])
    assert np.array_equal(v.vectorize("kitchen light", already_normalized=True), many[0])


# ---- limits: ties, the k-th place, faint matches ----------------------------------------------

# Eight plugs with the same name and one other name, in this order.
TWINS = {f"switch.plug_{i}": "desk plug" for i in range(8)} | {"light.desk": "desk lamp"}


@pytest.mark.parametrize(
    ("top_k", "allowed", "expected"),
    [
        (1, None, ["switch.plug_0"]),
        (3, None, ["switch.plug_0", "switch.plug_1", "switch.plug_2"]),
        (3, {"switch.plug_5", "switch.plug_2", "light.desk"}, ["switch.plug_2", "switch.plug_5"]),
        (2, {"switch.plug_7", "switch.plug_6"}, ["switch.plug_6", "switch.plug_7"]),
        (1, {"switch.plug_4"}, ["switch.plug_4"]),
        (1, set(TWINS) - {"switch.plug_0"}, ["switch.plug_1"]),
    ],
)
def test_equal_scores_rank_in_the_order_entities_were_indexed(
    top_k: int, allowed: set[str] | None, expected: list[str]
) -> None:
    # The same home and query always give the same list, however many tie at the k-th place.
    searcher = build(TWINS)
    wanted = [e for e in expected if e != "light.desk"]
    got = top(searcher, "desk plug", top_k, allowed)
    assert got[: len(wanted)] == wanted
    assert len(got) == min(top_k, len(allowed or TWINS))
    assert searcher.shortlist(searcher.vectorize("desk plug"), top_k, allowed) == got


@pytest.mark.parametrize("top_k", [1, 2, 8, 9, 10])
def test_top_k_returns_exactly_k_when_k_entities_match(top_k: int) -> None:
    searcher = build(TWINS)
    got = top(searcher, "desk", top_k)
    assert len(got) == min(top_k, len(TWINS))
    assert top(searcher, "desk", top_k, set(TWINS)) == got


def test_a_faint_match_is_still_a_match_and_no_match_is_none() -> None:
    # One shared word among eighty: a small cosine, but above zero, so it is found.
    words = " ".join(f"w{i}x{i * 7}" for i in range(80))
    searcher = InMemoryVectorSearcher.build(
        [("e.far", f"lamp {words}"), ("e.near", "lamp"), ("e.none", "zzz")]
    )
    vector = searcher.vectorize("lamp")
    assert 0.0 < searcher.scores(vector)["e.far"] < 0.2
    assert top(searcher, "lamp", 5) == ["e.near", "e.far"]
    assert top(searcher, "lamp", 5, {"e.far", "e.none"}) == ["e.far"]
    assert set(searcher.scores_of(vector, {"e.far", "e.none", "e.near"})) == {"e.far", "e.near"}


def test_removing_the_last_row_leaves_the_others_as_they_were() -> None:
    searcher = build()
    vector = searcher.vectorize("kitchen light")
    before = searcher.scores(vector)
    searcher.remove("light.zh_ceiling")  # the last one indexed
    after = searcher.scores(vector)
    assert after == {e: s for e, s in before.items() if e != "light.zh_ceiling"}
    searcher.upsert("light.zh_ceiling", normalize("吸顶灯"))
    assert searcher.scores(vector) == before


def test_a_home_of_one_entity_scores_and_ranks_it() -> None:
    searcher = InMemoryVectorSearcher.build([("light.a", "desk lamp")])
    vector = searcher.vectorize("desk lamp")
    assert set(searcher.scores_of(vector, {"light.a", "light.b"})) == {"light.a"}
    assert top(searcher, "desk lamp", 1) == ["light.a"]
    assert top(searcher, "desk lamp", 1, {"light.a"}) == ["light.a"]
