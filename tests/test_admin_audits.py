"""The admin audits or cannot (issue 9, hole 7): money, state and seating cannot change there; names stay as recorded."""
import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client

from ledger import models, services
from ledger.models import Night, Player, Seating

from .conftest import api_client
from .harden_helpers import THREE_SELF_DRAWS, snapshot


@pytest.fixture
def root(db):
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("root", password="x"))
    return client


def test_a_superuser_cannot_reopen_a_night_or_change_its_base(night, owner, root):
    services.night_close(night=night, by=owner)
    page = root.get(f"/admin/ledger/night/{night.pk}/change/")
    assert page.status_code == 200
    form = page.context["adminform"].form
    assert not {"base", "rules", "is_closed", "closed_at", "first_dealer", "stake"} & set(form.fields)
    before = snapshot()
    root.post(f"/admin/ledger/night/{night.pk}/change/", {
        "title": night.title, "date": "2026-11-27", "venue": "", "base": "999", "is_closed": "", "rules": "{}",
        "members": [], "scorekeepers": [],
        "seating-TOTAL_FORMS": "0", "seating-INITIAL_FORMS": "4", "seating-MIN_NUM_FORMS": "0",
        "seating-MAX_NUM_FORMS": "1000"})
    night.refresh_from_db()
    assert night.is_closed and str(night.base) == "2.00"
    assert {k: v for k, v in snapshot().items() if k != "audit"} == {k: v for k, v in before.items() if k != "audit"}


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
    page = root.get(f"/admin/ledger/player/{players[0].pk}/change/")
    assert "name" not in page.context["adminform"].form.fields
    root.post(f"/admin/ledger/player/{players[0].pk}/change/", {"name": "改名", "user": ""})
    assert Player.objects.get(pk=players[0].pk).name == "张三"


def test_past_hands_keep_the_names_they_were_recorded_with(night, owner):
    services.hand_record(night=night, by=owner, entry=THREE_SELF_DRAWS)
    Player.objects.filter(name="李四").update(name="李四四")  # however a name changes later
    hand = api_client(owner).get(f"/api/nights/{night.pk}/hands/1/").json()
    assert hand["players"] == ["张三", "李四", "王五", "赵六"] and hand["lines"][0].startswith("李四 自摸")
    page = Client()
    page.force_login(owner)
    assert "李四四" not in page.get(f"/nights/{night.pk}/hands/").content.decode()


def test_every_model_still_has_an_admin_list_page(night, root):
    for model in (models.Player, models.Night, models.Seating, models.IdempotencyRecord):
        assert root.get(f"/admin/ledger/{model._meta.model_name}/").status_code == 200
