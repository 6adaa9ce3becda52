"""core/base/models.Reason: a candidate's reasons as codes and values, and the English
sentence the service's `reasons` and the logs have always shown."""

from __future__ import annotations

import pytest

from custom_components.context_retrieval.core.base.models import Reason, ReasonCode


@pytest.mark.parametrize(
    ("reason", "sentence"),
    [
        (Reason(ReasonCode.NAME, "空调", field="name"), "name matches '空调'"),
        (Reason(ReasonCode.NAME, "lamp", field="numbered"), "numbered name matches 'lamp'"),
        (Reason(ReasonCode.NAME, "lamps", field="inflected"), "name (inflected) matches 'lamps'"),
        (Reason(ReasonCode.NAME, "hub", field="device"), "device name matches 'hub'"),
        (
            Reason(ReasonCode.KEYWORD, "desk", "desk lamp", "alias", 0.912),
            "keyword 'desk' ~ alias 'desk lamp' (0.91)",
        ),
        (Reason(ReasonCode.VECTOR, score=0.5), "vector similarity 0.50"),
        (Reason(ReasonCode.EMBEDDING, score=0.25), "embedding similarity 0.25"),
        (Reason(ReasonCode.TYPE, "curtain"), "type curtain in scope"),
        (Reason(ReasonCode.STATE, "off/on"), "state off/on"),
        (Reason(ReasonCode.LAST_TURN), "refers to the last turn"),
        (Reason(ReasonCode.ALL_CAPABLE), "everything in scope that can do this"),
        (Reason(ReasonCode.CLARIFIED, "ordinal"), "answer to clarification (ordinal)"),
        (Reason(ReasonCode.CONFIRMED), "confirmed by the user"),
        (Reason(ReasonCode.ROOM_NAMED), "in the room named earlier"),
        (Reason(ReasonCode.SATELLITE_ROOM), "in the satellite's area"),
        (Reason(ReasonCode.WORDS_FIT, "left one"), "words 'left one' fit it best"),
    ],
)
def test_every_code_has_its_english_sentence(reason: Reason, sentence: str) -> None:
    assert str(reason) == sentence


def test_every_code_is_said() -> None:
    for code in ReasonCode:
        assert str(Reason(code, "x", "y", "name", 0.5))


def test_as_dict_carries_only_what_the_reason_has() -> None:
    assert Reason(ReasonCode.CONFIRMED).as_dict() == {"code": "confirmed"}
    assert Reason(ReasonCode.KEYWORD, "desk", "desk lamp", "name", 0.9149).as_dict() == {
        "code": "keyword",
        "said": "desk",
        "matched": "desk lamp",
        "field": "name",
        "score": 0.91,
    }
    assert Reason(ReasonCode.VECTOR, score=0.0).as_dict() == {"code": "vector", "score": 0.0}
