"""The admin cannot change what the ledger derives from: every ledger record is read-only there (a change would skip
the audit trail and the caches built on it); names stay as recorded."""
import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client

from ledger import models
from ledger.services import nights as services
from ledger.models import Night, Player, Seating

from tests.conftest import api_client
from tests.harden_helpers import THREE_SELF_DRAWS, snapshot


@pytest.fixture
def root(db):
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("root", password="x"))
    return client


def test_a_superuser_cannot_reopen_a_night_or_change_its_base(night, owner, root):
    services.night_close(night=night, by=owner)
    page = root.get(f"/admin/ledger/night/{night.pk}/change/")
    assert page.status_code == 200 and not page.context["has_change_permission"]  # a view, no form to send
    before = snapshot()
    refused = root.post(f"/admin/ledger/night/{night.pk}/change/", {
        "title": "改了", "date": "2026-11-27", "venue": "", "base": "999", "is_closed": "", "rules": "{}",
        "seating-TOTAL_FORMS": "0", "seating-INITIAL_FORMS": "4", "seating-MIN_NUM_FORMS": "0",
        "seating-MAX_NUM_FORMS": "1000"})
    assert refused.status_code == 403
    night.refresh_from_db()
    assert night.is_closed and str(night.base) == "2.00" and night.title == "周五夜"
    assert snapshot() == before


@pytest.mark.parametrize("model", [m for m in admin.site._registry if m._meta.app_label == "ledger"],
                         ids=lambda m: m.__name__)
def test_no_ledger_record_can_be_added_changed_or_deleted_in_the_admin(model, night):
    """Fees, group, evening, title, seating, money, names: none of it changes behind the services' back."""
    request = type("Request", (), {"user": None})()
    model_admin = admin.site._registry[model]
    assert not (model_admin.has_add_permission(request) or model_admin.has_change_permission(request)
                or model_admin.has_delete_permission(request))


def test_seating_cannot_be_changed_added_or_deleted_in_the_admin(night, root):
    request = type("Request", (), {"user": None})()
    seating_admin = admin.site._registry[Seating]
    assert not (seating_admin.has_add_permission(request) or seating_admin.has_change_permission(request)
                or seating_admin.has_delete_permission(request))
    inline = admin.site._registry[Night].inlines[0](Night, admin.site)
    assert not (inline.has_add_permission(request, night) or inline.has_change_permission(request, night)
                or inline.can_delete)


def test_nights_cannot_be_added_or_deleted_in_the_admin(night):
    request = type("Request", (), {"user": None})()
    assert not admin.site._registry[Night].has_add_permission(request)
    assert not admin.site._registry[Night].has_delete_permission(request, night)


def test_a_player_cannot_be_renamed_in_the_admin(players, root):
    assert root.post(f"/admin/ledger/player/{players[0].pk}/change/", {"name": "改名", "user": ""}).status_code == 403
    assert Player.objects.get(pk=players[0].pk).name == "张三"


def test_past_hands_keep_the_names_they_were_recorded_with(night, owner):
    services.hand_record(night=night, by=owner, entry=THREE_SELF_DRAWS)
    Player.objects.filter(name="李四").update(name="李四四")  # however a name changes later
    hand = api_client(owner).get(f"/api/nights/{night.pk}/hands/1/").json()
    assert hand["players"] == ["张三", "李四", "王五", "赵六"] and hand["lines"][0].startswith("李四 自摸")
    page = Client()
    page.force_login(owner)
    listed = page.get(f"/nights/{night.pk}/hands/").content.decode()
    card = listed[listed.index('id="hand-1"'):listed.index("</article>", listed.index('id="hand-1"'))]
    assert "李四四" not in card and "李四 自摸" in card
    assert "南 · 李四四" in listed  # who sits there now, in the seat change (换人) form


def test_every_model_still_has_an_admin_list_page(night, root):
    for model in (models.Player, models.Night, models.Seating, models.IdempotencyRecord):
        assert root.get(f"/admin/ledger/{model._meta.model_name}/").status_code == 200
