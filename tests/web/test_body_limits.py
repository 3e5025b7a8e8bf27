"""Request bodies are limited while they arrive, through the ASGI app that uvicorn serves (issue 16).

A body past its path's limit (64 KiB; the backup import 16 MiB) is answered 413 with the errors document, in the
request's language, without being read in full: a declared Content-Length past the limit is refused before any
of it is read, and a chunked body (no Content-Length) once what arrived passes the limit. A small chunked body
is read and parsed as any other. Backups up to 16 MiB reach the import's own checks (Django's
DATA_UPLOAD_MAX_MEMORY_SIZE of 2.5 MiB stopped them, naming 65,536 bytes).
"""
import asyncio
import json

import pytest
from asgiref.sync import async_to_sync

from ledger.asgi import application
from ledger.web.http_limits import API_MAX_BODY, BACKUP_MAX_BODY
from ledger.reports.backup import export_night

from tests.conftest import api_client
from tests.hand_helpers import w, win

CHUNK = 16 * 1024

pytestmark = pytest.mark.django_db  # what gets past the limit reaches the views (the refusals touch no database)


@pytest.fixture(autouse=True)
def keep_the_test_transaction():
    """As Django's test client: the request signals must not close the connection that holds the test's
    transaction (close_old_connections would, on PostgreSQL)."""
    from django.core import signals
    from django.db import close_old_connections
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


def call(path, *, chunks, headers=(), method="POST"):
    """One HTTP request through the ASGI app: its status, headers, body, and how often the app called receive()."""
    calls = [0]
    sent = []
    source = iter(chunks)

    async def receive():
        calls[0] += 1
        try:
            chunk, more = next(source)
        except StopIteration:  # the body is all sent: the client waits for the answer (as a server's receive)
            await asyncio.Event().wait()
        return {"type": "http.request", "body": chunk, "more_body": more}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(b"host", b"testserver"), *[(k.encode(), v.encode()) for k, v in headers]],
             "client": ("10.1.2.3", 5000), "server": ("testserver", 80)}
    async_to_sync(application)(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], dict((k.decode(), v.decode()) for k, v in start["headers"]), body, calls[0]


def endless(size=CHUNK, total=40 * 1024 * 1024):
    """A body far past every limit (40 MiB, in chunks): a test that read it all would take its time, not hang."""
    for _ in range(total // size - 1):
        yield b"x" * size, True
    yield b"x" * size, False


def chunked(data, size=1000):
    parts = [data[i:i + size] for i in range(0, len(data), size)] or [b""]
    return [(part, i < len(parts) - 1) for i, part in enumerate(parts)]


def test_a_declared_body_past_the_limit_is_refused_before_any_of_it_is_read():
    status, headers, body, calls = call("/api/score/", chunks=endless(),
                                        headers=[("content-type", "application/json"),
                                                 ("content-length", str(200 * 1024 * 1024))])
    assert status == 413 and calls == 0
    assert headers["content-type"].startswith("application/json")
    assert json.loads(body) == {"errors": [{"path": "", "message": f"请求太大（最多 {API_MAX_BODY} 字节）"}]}


def test_a_chunked_body_past_the_limit_is_refused_once_the_limit_is_passed():
    status, _headers, body, calls = call("/api/score/", chunks=endless(),
                                         headers=[("content-type", "application/json"), ("accept-language", "en")])
    assert status == 413
    assert calls <= API_MAX_BODY // CHUNK + 2  # not 200 MB of it: what passed the limit, then the answer
    assert json.loads(body)["errors"] == [{"path": "", "message": f"request too large (at most {API_MAX_BODY} bytes)"}]


def test_the_refusal_speaks_chinese_to_a_request_that_refuses_english():
    _status, headers, body, _calls = call("/api/score/", chunks=endless(),
                                          headers=[("content-type", "application/json"),
                                                   ("accept-language", "en;q=0")])
    assert json.loads(body)["errors"][0]["message"] == f"请求太大（最多 {API_MAX_BODY} 字节）"
    assert headers["content-language"] == "zh-hans"


def test_a_page_body_past_the_limit_is_refused_too():
    status, _headers, body, calls = call("/login/", chunks=endless(),
                                         headers=[("content-type", "application/x-www-form-urlencoded")])
    assert status == 413 and calls <= API_MAX_BODY // CHUNK + 2
    assert json.loads(body)["errors"][0]["path"] == ""


def test_a_small_chunked_body_is_read_and_parsed(db):
    data = json.dumps({"events": [win(None, w(0, "qing_yi_se"))], "exhausted": True}).encode()
    status, _headers, body, _calls = call("/api/score/", chunks=chunked(data),
                                          headers=[("content-type", "application/json")])
    assert status == 200, body
    assert json.loads(body)["wins"][0]["pattern"] == "qing_yi_se"


def test_a_chunked_body_that_is_not_json_is_a_400_not_an_empty_body(night, owner):
    """Read as empty, it closed the night (a close takes an empty body)."""
    from rest_framework.authtoken.models import Token
    token = Token.objects.create(user=owner).key
    status, _headers, body, _calls = call(f"/api/nights/{night.pk}/close/", chunks=chunked(b"{not json"),
                                          headers=[("content-type", "application/json"),
                                                   ("authorization", f"Token {token}")])
    assert status == 400 and json.loads(body)["errors"]
    night.refresh_from_db()
    assert not night.is_closed


def test_a_declared_body_within_the_limit_passes_as_before(db):
    data = json.dumps({"events": [win(None, w(1))], "exhausted": True}).encode()
    status, _headers, body, _calls = call("/api/score/", chunks=chunked(data, 100),
                                          headers=[("content-type", "application/json"),
                                                   ("content-length", str(len(data)))])
    assert status == 200, body


def padded_backup(night, size):
    """The night's backup with a long text added, so that it is larger than `size` bytes (its content may be
    refused by the import's own checks: the point is that its size is not)."""
    doc = export_night(night)
    doc["night"]["venue"] = "茶馆" * (size // 5)
    return json.dumps(doc, ensure_ascii=False).encode()


@pytest.fixture
def staff(owner):
    owner.is_staff = True
    owner.save(update_fields=["is_staff"])
    return owner


def assert_not_refused_for_size(status, body):
    assert status != 413, body[:300]
    assert b"bytes" not in body and "字节".encode() not in body, body[:300]


def test_a_backup_over_two_and_a_half_mebibytes_reaches_the_import_over_the_api(night, staff):
    data = padded_backup(night, 3 * 1024 * 1024)
    assert 2.5 * 1024 * 1024 < len(data) < BACKUP_MAX_BODY
    response = api_client(staff).post("/api/nights/import/", data, content_type="application/json")
    assert_not_refused_for_size(response.status_code, response.content)


def test_a_backup_over_two_and_a_half_mebibytes_passes_the_asgi_limit_chunked_or_not(night, staff):
    from rest_framework.authtoken.models import Token
    token = Token.objects.create(user=staff).key
    data = padded_backup(night, 3 * 1024 * 1024)
    common = [("content-type", "application/json"), ("authorization", f"Token {token}")]
    for extra in ([("content-length", str(len(data)))], []):
        status, _headers, body, _calls = call("/api/nights/import/", chunks=chunked(data, 64 * 1024),
                                              headers=common + extra)
        assert_not_refused_for_size(status, body)
        assert status in (200, 201, 400), body[:300]  # the import's own answer (signed in: not 401 or 403)


def test_a_backup_past_its_limit_is_refused_naming_its_limit():
    status, _headers, body, calls = call("/api/nights/import/", chunks=endless(64 * 1024),
                                         headers=[("content-type", "application/json"), ("accept-language", "en")])
    assert status == 413 and calls <= BACKUP_MAX_BODY // (64 * 1024) + 2
    assert json.loads(body)["errors"][0]["message"] == f"request too large (at most {BACKUP_MAX_BODY} bytes)"
