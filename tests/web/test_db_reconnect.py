"""After PostgreSQL drops its connections (a restart, a failover, an idle timeout), pages work again (issue 16).

Under ASGI, Django renders the answer to an exception (the 404 page of an unknown address, a 403, a 500) in a
thread of its pool rather than the request's own thread, where connections are checked before each request and
closed after it. A connection opened there was never checked nor closed: once PostgreSQL dropped it, a signed-in
user's 404 page (it reads the user for the page's header) answered 500 on every worker until it restarted.
"""
import asyncio

import psycopg
import pytest
from asgiref.sync import async_to_sync
from django.conf import settings as django_settings
from django.db import connection
from django.test import Client

from ledger.asgi import application

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="terminates PostgreSQL backends"),
    pytest.mark.django_db(transaction=True),
]


async def get(path, cookie):
    """A GET through the ASGI app, as uvicorn makes it: the (empty) body, then nothing until the answer is sent."""
    sent = []
    messages = [{"type": "http.request", "body": b"", "more_body": False}]

    async def receive():
        if messages:
            return messages.pop()
        await asyncio.Event().wait()  # the client waits for the answer (Django cancels this when it is sent)

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(b"host", b"testserver"), (b"cookie", cookie.encode())],
             "client": ("10.1.2.3", 5000), "server": ("testserver", 80)}
    await application(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    return start["status"], b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


async def at_once(requests):
    """Requests sent together, as several phones do (each answered in a thread of its own, as under uvicorn)."""
    return await asyncio.gather(*[get(path, cookie) for path, cookie in requests])


def terminate_every_connection():
    """What a PostgreSQL restart does to the app's connections: every backend of the database ends."""
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params.pop("prepare_threshold", None)
    with psycopg.connect(**params, autocommit=True) as admin:
        ended = admin.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                              "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchone()[0]
    return ended


@pytest.mark.parametrize("path", ["/no-such-page/", "/nights/999999/"], ids=["unknown-address", "unknown-night"])
def test_a_signed_in_users_404_page_is_a_404_after_postgresql_drops_its_connections(owner, path):
    client = Client()
    client.force_login(owner)
    cookie = f"sessionid={client.cookies['sessionid'].value}"

    async def serve():
        """One event loop for every request, as a uvicorn worker has: its thread pool lives as long as it does."""
        before = [await get(path, cookie) for _ in range(8)]  # every thread of the pool has opened its connection
        ended = terminate_every_connection()  # none with CONN_MAX_AGE=0 once fixed: no connection outlives its request
        return before, ended, [await get(path, cookie) for _ in range(8)]
    before, ended, after = async_to_sync(serve)()
    assert [status for status, _body in before] == [404] * 8
    assert [status for status, _body in after] == [404] * 8, after[0][1][:300]
    assert b'id="nav-groups"' in after[-1][1]  # the page was rendered for the signed-in user


needs_the_pool = pytest.mark.skipif(not getattr(django_settings, "PG_POOL", 0), reason="PG_POOL=0: no pool")


@needs_the_pool
def test_pages_served_under_asgi_share_the_pool_s_connections(owner, settings):
    """Each request runs in a thread of its own under ASGI: connections come from the pool (at most PG_POOL a
    process) and go back to it, where one opened per request and closed after it before (settings: PG_POOL)."""
    pool = connection.pool
    assert pool is not None and pool.max_size == settings.PG_POOL
    client = Client()
    client.force_login(owner)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    opened = pool.get_stats().get("connections_num", 0)
    statuses = async_to_sync(at_once)([("/nights/999999/", cookie)] * 20)
    assert [status for status, _body in statuses] == [404] * 20
    assert pool.get_stats().get("connections_num", 0) - opened <= settings.PG_POOL


@needs_the_pool
def test_pages_answer_after_postgresql_drops_every_connection_of_a_full_pool(owner):
    """The worst case after a restart: every connection of the pool idle and dropped. The pool checks each before
    lending it and waits 1, 2, 4 s between the broken ones it discards (psycopg_pool's backoff), so PG_POOL (4) keeps
    the first request after a restart under 8 s, inside the pool's 20 s timeout: no 500."""
    client = Client()
    client.force_login(owner)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    pool = connection.pool
    held = [pool.getconn() for _ in range(pool.max_size - pool.get_stats()["pool_size"]
                                          + pool.get_stats()["pool_available"])]
    for conn in held:
        pool.putconn(conn)
    assert pool.get_stats()["pool_size"] == pool.max_size
    terminate_every_connection()
    statuses = async_to_sync(at_once)([("/nights/999999/", cookie)] * 3)
    assert [status for status, _body in statuses] == [404] * 3
