"""The fake embedding service's fixtures, for the tests in this folder only (they open sockets
on 127.0.0.1, which the rest of the suite does not)."""

from tests.core.base.embedding.server import _no_proxy, _reset_server, server  # noqa: F401
