"""The embedding service's requests, sent through Home Assistant's shared HTTP session.

The engine's `EmbeddingClient` is synchronous (it runs in the executor, with the retrieval) and
imports nothing of Home Assistant, so it takes its transport from here: each POST is handed to
the event loop and sent with the session Home Assistant shares between integrations (its
connection pool, its TLS settings, its user agent), while the worker thread waits for the
answer. The transport keeps the engine's promises: no redirect is followed (the bearer token
stays with the host the user named), the body is capped, and the whole request is bounded by
the timeout.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import TimeoutError as FutureTimeout

import aiohttp
from homeassistant.core import HomeAssistant
from homeassistant.helpers.aiohttp_client import async_get_clientsession

from .core.base.embeddings import (
    EMBEDDING_HTTP_ERROR,
    READ_CHUNK,
    EmbeddingError,
    HttpRequest,
    Transport,
    http_status_error,
    timeout_error,
    too_large_error,
)

# How much longer the waiting worker thread gives the event loop than the request's own
# timeout: the loop reports a timeout itself; this only bounds a loop that is stopping.
WAIT_GRACE = 2.0


def session_transport(hass: HomeAssistant) -> Transport:
    """A transport for the engine over Home Assistant's shared session (call it from a worker
    thread: from the event loop it would wait for itself)."""
    session = async_get_clientsession(hass)

    def transport(request: HttpRequest) -> bytes:
        if threading.get_ident() == hass.loop_thread_id:
            raise RuntimeError("the embedding transport blocks; call it from the executor")
        future = asyncio.run_coroutine_threadsafe(async_post(session, request), hass.loop)
        try:
            return future.result(request.timeout + WAIT_GRACE)
        except FutureTimeout:
            future.cancel()
            raise timeout_error(request.timeout) from None

    return transport


async def async_post(session: aiohttp.ClientSession, request: HttpRequest) -> bytes:
    """One POST within `request.timeout`; failures become the engine's `EmbeddingError`s."""
    try:
        async with (
            asyncio.timeout(request.timeout),
            session.post(
                request.url,
                data=request.body,
                headers=dict(request.headers),
                allow_redirects=False,
            ) as response,
        ):
            if not 200 <= response.status < 300:
                raise http_status_error(response.status)
            length = response.content_length
            if length is not None and length > request.max_bytes:
                raise too_large_error()
            chunks: list[bytes] = []
            size = 0
            async for chunk in response.content.iter_chunked(READ_CHUNK):
                size += len(chunk)
                if size > request.max_bytes:
                    raise too_large_error()
                chunks.append(chunk)
            return b"".join(chunks)
    except EmbeddingError:
        raise
    except TimeoutError:
        raise timeout_error(request.timeout) from None
    except (aiohttp.ClientError, OSError, ValueError) as err:
        raise EmbeddingError(
            EMBEDDING_HTTP_ERROR, f"connection failed ({type(err).__name__})"
        ) from None
