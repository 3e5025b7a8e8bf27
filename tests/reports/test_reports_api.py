"""Report endpoints and buttons: members download every format, outsiders get 404, backups restore via the API."""
import json

import pytest
from django.urls import reverse

from ledger.models import Night
from ledger.reports.backup import export_night

from tests.conftest import api_client
from tests.factories import page_client as client_for

ENDPOINTS = ["report.pdf", "report.png", "report.txt", "hands.csv", "payments.csv", "backup.json"]


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_outsiders_get_404_on_every_report_endpoint(played, outsider, endpoint):
    assert api_client(outsider).get(f"/api/nights/{played.pk}/{endpoint}").status_code == 404
    assert api_client().get(f"/api/nights/{played.pk}/{endpoint}").status_code in (401, 403)


@pytest.mark.parametrize("endpoint, content_type, name", [
    ("report.txt", "text/plain; charset=utf-8", "2026-11-27-%E5%91%A8%E4%BA%94%E5%A4%9C.txt"),
    ("hands.csv", "text/csv; charset=utf-8", "2026-11-27-%E5%91%A8%E4%BA%94%E5%A4%9C-hands.csv"),
    ("payments.csv", "text/csv; charset=utf-8", "2026-11-27-%E5%91%A8%E4%BA%94%E5%A4%9C-payments.csv"),
    ("backup.json", "application/json", "2026-11-27-%E5%91%A8%E4%BA%94%E5%A4%9C.json"),
])
def test_members_download_each_format_under_its_own_name(played, viewer, endpoint, content_type, name):
    response = api_client(viewer).get(f"/api/nights/{played.pk}/{endpoint}")
    assert response.status_code == 200 and response["Content-Type"] == content_type
    assert response["Content-Disposition"].endswith(f"filename*=UTF-8''{name}")


def test_the_pdf_endpoint_speaks_english_on_request(played, viewer):
    response = api_client(viewer).get(f"/api/nights/{played.pk}/report.pdf?lang=en")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF-")
    assert response["Content-Disposition"].startswith('attachment; filename="2026-11-27-night.pdf"')
    text = api_client(viewer).get(f"/api/nights/{played.pk}/report.txt?lang=en").content.decode()
    assert "Each player's net" in text


def test_the_png_endpoint_gives_the_outcome_picture(played, viewer):
    response = api_client(viewer).get(f"/api/nights/{played.pk}/report.png")
    assert response.status_code == 200 and response.content.startswith(b"\x89PNG")


def test_the_owner_restores_a_backup_through_the_api_and_again_changes_nothing(played, owner):
    doc = export_night(played)
    doc_copy = json.loads(json.dumps(doc))
    response = api_client(owner).post("/api/nights/import/", doc_copy, format="json")
    assert response.status_code == 200 and response.json()["created"] is False
    assert Night.objects.count() == 1


def test_a_tampered_backup_is_refused_through_the_api_with_errors(played, owner):
    doc = export_night(played)
    doc["hands"][0]["revisions"][0]["result"]["net"][0] = "1000"
    response = api_client(owner).post("/api/nights/import/", doc, format="json")
    assert response.status_code == 400 and "校验值" in response.json()["errors"][0]["message"]


def test_only_the_owner_may_import_a_nights_backup(played, viewer):
    response = api_client(viewer).post("/api/nights/import/", export_night(played), format="json")
    assert response.status_code == 403


def test_the_schema_documents_the_report_endpoints(db, owner):
    schema = api_client(owner).get("/api/schema/", HTTP_ACCEPT="application/json").json()
    paths = schema["paths"]
    assert "application/pdf" in paths["/api/nights/{id}/report.pdf"]["get"]["responses"]["200"]["content"]
    assert {"/api/nights/{id}/report.png", "/api/nights/{id}/payments.csv", "/api/nights/{id}/backup.json",
            "/api/nights/import/"} <= set(paths)


def test_the_table_and_end_of_night_pages_offer_the_report_and_the_text(played, viewer):
    table = client_for(viewer).get(reverse("night-table", args=[played.pk])).content.decode()
    assert f"/api/nights/{played.pk}/report.pdf?lang=zh" in table and "分享" in table
    settle = client_for(viewer, "en").get(reverse("night-settle", args=[played.pk])).content.decode()
    assert f"/api/nights/{played.pk}/report.png?lang=en" in settle and "Copy the text" in settle
    assert "Fewest transfers" in settle and "reports/share.js" in settle
    assert "<script>" not in settle


def test_a_backup_larger_than_an_ordinary_request_is_restored_into_an_empty_database(played, owner):
    from ledger.models import AuditEntry, Hand, HandRevision, Seating

    from tests.report_helpers import add_hands
    add_hands(played, 30, owner)
    doc = export_night(played)
    body = json.dumps(doc, ensure_ascii=False).encode()
    assert len(body) > 64 * 1024
    for model in (HandRevision, AuditEntry, Hand, Seating):
        model.objects.all().delete()
    played.members.clear()
    played.scorekeepers.clear()
    Night.objects.all().delete()
    response = api_client(owner).post("/api/nights/import/", body, content_type="application/json",
                                      HTTP_IDEMPOTENCY_KEY="restore-1")
    assert response.status_code == 201, response.content
    assert response.json()["hands"] == 33 and response.json()["new_users"] == []
    assert export_night(Night.objects.get()) == doc
