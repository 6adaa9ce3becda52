"""bench/prompt_cache.py: the prefix-cache accounting, and a tiny home through the same code
path as the benchmark (the scripted LLM agent, the real chat log and LLM APIs)."""

from __future__ import annotations

from homeassistant.core import HomeAssistant

from bench.prompt_cache import (
    SETUPS,
    TURNS,
    TurnCost,
    async_measure_in,
    cached_tokens,
    render,
    shared_length,
)
from bench.synthetic import make_home
from bench.tokens import TokenCounter


def test_shared_length_and_cached_tokens() -> None:
    assert shared_length("abcdef", "abcxyz") == 3
    assert shared_length("abc", "abc") == 3
    assert shared_length("", "abc") == 0
    counter = TokenCounter(use_bpe=False)
    # The longest shared start with any earlier request counts; none: nothing cached.
    assert cached_tokens("a" * 400 + "b", ["a" * 100, "a" * 400 + "c"], counter) == 100
    assert cached_tokens("xyz", [], counter) == 0


async def test_tiny_home(hass: HomeAssistant, enable_custom_integrations: None) -> None:
    counter = TokenCounter(use_bpe=False)
    result = await async_measure_in(hass, make_home(60, "en", seed=0), 2, counter)

    assert result["size"] == 60 and result["conversations"] == 2
    runs = {s: [[TurnCost(**c) for c in conv] for conv in result["runs"][s]] for s in SETUPS}
    for setup in SETUPS:
        assert all(len(conv) == TURNS for conv in runs[setup])
    device_control, ours = runs["device_control"][0], runs["ours_api"][0]
    assert [t.requests for t in device_control] == [1] * TURNS
    assert [t.requests for t in ours] == [2] * TURNS  # the tool call, then the answer
    for later in ours[1:]:
        # Only this turn's messages are new: the prompt and tools are the same every turn.
        assert later.cached > later.new > 0
    # Our prompt is shorter than Device control's, which lists every exposed entity.
    assert ours[0].tokens / 2 < device_control[0].tokens
    text = render([result], counter)
    assert "| Device control | 5 |" in text and "| Context Retrieval API | 10 |" in text
