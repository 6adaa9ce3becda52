"""Reading an utterance in a home: tokens and the stretches that name something (`analysis`),
typo repair (`repair`), and the commands it holds as `QueryIR` (`commands`, `reading`).

Retrieval and questions both read utterances this way, so it lives in `base`.
"""

from .analysis import analyze
from .commands import compile_commands, compile_utterance
from .spans import Analysis, Span

__all__ = ["Analysis", "Span", "analyze", "compile_commands", "compile_utterance"]
