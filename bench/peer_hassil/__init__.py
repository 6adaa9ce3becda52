"""Peer benchmark: Home Assistant's own default-agent matcher (hassil and the
home-assistant-intents sentences) on our entity-retrieval suite (`python -m bench.peer_hassil`;
cli.py says how it is driven and what it leaves out).

hassil_api.py: hassil across releases; home.py: a home as slot lists; targets.py: matched slots
to entity ids as Home Assistant resolves them; peer.py: the suite, turn by turn.
"""

from .cli import main
from .home import intents_language
from .peer import HassilPeer, PeerStats, run

__all__ = ["HassilPeer", "PeerStats", "intents_language", "main", "run"]
