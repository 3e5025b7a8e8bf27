"""The OpenAPI schema is good enough for a stock generator: openapi-python-client builds a client from it that
creates a hand from typed events, reads its result, and downloads every report (PDF and PNG as bytes, CSV and
text as str), and the token request asks only for username and password (README: "A client from the schema")."""
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.authtoken.models import Token

from ledger.services import nights as services

GENERATOR = Path(sys.executable).with_name("openapi-python-client")


@pytest.fixture(scope="module")
def api_client_package(tmp_path_factory, django_db_blocker):
    """Generate the client once, as the README says, from the schema the server serves."""
    where = tmp_path_factory.mktemp("client")
    with django_db_blocker.unblock():
        schema = SchemaGenerator().get_schema(request=None, public=True)
    (where / "schema.json").write_text(json.dumps(schema, default=str))
    (where / "config.json").write_text(json.dumps({"post_hooks": [], "project_name_override": "ledger-api-client",
                                                   "package_name_override": "ledger_api_client"}))
    run = subprocess.run([str(GENERATOR), "generate", "--path", str(where / "schema.json"), "--meta", "none",
                          "--config", str(where / "config.json"), "--output-path", str(where / "ledger_api_client")],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Unsupported content_type" not in run.stdout and "Cannot parse" not in run.stdout, run.stdout
    sys.path.insert(0, str(where))
    yield importlib.import_module("ledger_api_client")
    sys.path.remove(str(where))


def test_the_token_request_asks_only_for_what_the_client_gives(api_client_package):
    from ledger_api_client.models import AuthTokenRequest
    assert AuthTokenRequest(username="demo", password="demo").to_dict() == {"username": "demo", "password": "demo"}


def test_a_generated_client_builds_a_hand_from_typed_events_and_reads_the_result(api_client_package, live_server,
                                                                                  night, owner):
    from ledger_api_client import AuthenticatedClient
    from ledger_api_client.api.nights import nights_hands_create
    from ledger_api_client.models import HandEntryRequest, KongEvent, WinEvent, Winner
    from ledger_api_client.models.kong_event_kind import KongEventKind
    from ledger_api_client.models.kong_event_type import KongEventType
    from ledger_api_client.models.win_event_type import WinEventType
    from ledger_api_client.models.winner_pattern import WinnerPattern

    entry = HandEntryRequest(events=[
        KongEvent(type_=KongEventType.KONG, player=2, kind=KongEventKind.CONCEALED, tile="9p"),
        WinEvent(type_=WinEventType.WIN, from_=None, winners=[Winner(player=1, pattern=WinnerPattern.QING_YI_SE)]),
    ], exhausted=True)
    assert entry.to_dict()["events"][1] == {"type": "win", "from": None, "winners": [{"player": 1, "pattern": "qing_yi_se"}]}
    client = AuthenticatedClient(base_url=live_server.url, token=Token.objects.create(user=owner).key, prefix="Token")
    hand = nights_hands_create.sync(client=client, id=night.pk, body=entry)
    assert hand.number == 1
    result = hand.result
    assert [(w.player, w.pattern, w.fan) for w in result.wins] == [(1, "qing_yi_se", 2)]
    assert [(p.from_, p.to, p.amount, p.reason.value) for p in result.payments][:3] == [
        (0, 2, "4", "kong"), (1, 2, "4", "kong"), (3, 2, "4", "kong")]
    assert sum(int(n) for n in result.net) == 0 and hand.record.events[0].kind.value == "concealed"


def test_every_report_downloads_through_the_generated_client(api_client_package, live_server, night, owner):
    from ledger_api_client import AuthenticatedClient
    from ledger_api_client.api.reports import (nights_hands_csv_retrieve, nights_payments_csv_retrieve,
                                               nights_report_pdf_retrieve, nights_report_png_retrieve,
                                               nights_report_txt_retrieve)
    from ledger_api_client.types import File

    services.hand_record(night=night, by=owner, entry={"events": [{"type": "win", "from": None, "winners": [
        {"player": 1, "pattern": "ping_hu"}]}], "exhausted": True})
    client = AuthenticatedClient(base_url=live_server.url, token=Token.objects.create(user=owner).key, prefix="Token")
    pdf = nights_report_pdf_retrieve.sync(client=client, id=night.pk)
    png = nights_report_png_retrieve.sync(client=client, id=night.pk)
    for download, magic in ((pdf, b"%PDF"), (png, b"\x89PNG")):
        data = download.payload.read() if isinstance(download, File) else download
        assert data.startswith(magic)
    assert "李四" in nights_report_txt_retrieve.sync(client=client, id=night.pk)
    for csv_download in (nights_hands_csv_retrieve, nights_payments_csv_retrieve):
        text = csv_download.sync(client=client, id=night.pk)
        assert isinstance(text, str) and "李四" in text and "," in text
