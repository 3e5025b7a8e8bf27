"""删除这一场: a night made by mistake (a walk started one twice; the empty copy stayed on the group page and asked to
be signed off) is deleted by its owner while nothing is recorded on it; the group's trail keeps an entry of it."""
import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from ledger.models import AuditEntry, Night
from ledger.presenters.audit import entry_change
from ledger.services import adjustments
from ledger.services import nights as services

from tests.conftest import api_client
from tests.factories import page_client
from tests.hand_helpers import w, win


@pytest.fixture
def empty(owner, players, viewer, keeper):
    night = services.night_create(owner=owner, title="开错了", date=dt.date(2026, 12, 5), base=Decimal(1),
                                  players=players, first_dealer=0, members=[viewer], scorekeepers=[keeper])
    services.night_close(night=night, by=owner)  # closed or not: nothing is on it
    return night


def test_an_empty_night_is_deleted_and_the_groups_trail_says_so(empty, owner):
    group = empty.group
    services.night_delete(night=empty, by=owner)
    assert not Night.objects.filter(pk=empty.pk).exists()
    entry = AuditEntry.objects.get(action=AuditEntry.Action.NIGHT_DELETED)
    assert entry.group_id == group.pk and entry.night_id is None and entry.actor == owner
    assert entry_change(entry)["before"][:3] == ["名称：开错了", "日期：2026-12-05", "玩家：张三 / 李四 / 王五 / 赵六"]
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.NIGHT_CREATED, group=group).exists()
    trail = page_client(owner).get(reverse("group-audit", args=[group.pk])).content.decode()
    assert "删除牌局：开错了（2026-12-05 · 张三 / 李四 / 王五 / 赵六）" in trail  # which night, not just that one went
    english = page_client(owner, lang="en").get(reverse("group-audit", args=[group.pk])).content.decode()
    assert "Night deleted: 开错了 (2026-12-05 · 张三 / 李四 / 王五 / 赵六)" in english


def test_a_night_with_anything_recorded_is_kept(night, owner):
    services.hand_record(night=night, by=owner, entry={"events": [win(None, w(1))], "exhausted": True})
    services.hand_void(hand=night.hands.get(number=1), by=owner, reason="记错了")  # voided still counts as recorded
    with pytest.raises(ValidationError) as refused:
        services.night_delete(night=night, by=owner)
    assert "不能删除" in refused.value.message_dict["night"][0]
    assert Night.objects.filter(pk=night.pk).exists()


def test_a_night_with_an_adjustment_is_kept(night, owner):
    adjustments.adjustment_record(night=night, by=owner, data={"kind": "zha_hu", "player": 0})
    with pytest.raises(ValidationError):
        services.night_delete(night=night, by=owner)


def test_only_the_owner_deletes(empty, keeper):
    with pytest.raises(PermissionDenied):
        services.night_delete(night=empty, by=keeper)
    assert Night.objects.filter(pk=empty.pk).exists()


def test_the_settle_page_offers_deleting_exactly_when_allowed_and_the_api_deletes(empty, owner, keeper, night):
    url = reverse("night-settle", args=[empty.pk])
    delete = reverse("night-delete", args=[empty.pk])
    assert f'action="{delete}"' in page_client(owner).get(url).content.decode()
    assert f'action="{delete}"' not in page_client(keeper).get(url).content.decode()
    assert page_client(keeper).post(delete).status_code == 403
    services.hand_record(night=night, by=owner, entry={"events": [win(None, w(1))], "exhausted": True})
    recorded = reverse("night-settle", args=[night.pk])
    assert reverse("night-delete", args=[night.pk]) not in page_client(owner).get(recorded).content.decode()
    answer = page_client(owner).post(delete)
    assert answer.status_code == 302 and answer["Location"] == reverse("group-home", args=[empty.group_id])
    assert not Night.objects.filter(pk=empty.pk).exists()
    refused = api_client(owner).delete(f"/api/nights/{night.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["path"] == "night"
    again = services.night_create(owner=owner, title="又开错了", date=dt.date(2026, 12, 5), base=Decimal(1),
                                  players=list(p.player for p in night.seating.select_related("player")),
                                  first_dealer=0)
    assert api_client(owner).delete(f"/api/nights/{again.pk}/").status_code == 204
    assert not Night.objects.filter(pk=again.pk).exists()


def test_a_night_whose_only_hand_was_undone_says_why_it_stays(night, owner, keeper):
    """A walk saved one hand, undid it and found neither 删除这一场 nor a word why: the voided hand stays on record,
    and the page says so to whoever could have deleted it (not to a night with hands that count)."""
    url = reverse("night-settle", args=[night.pk])
    services.hand_record(night=night, by=owner, entry={"events": [win(None, w(1))], "exhausted": True})
    assert 'id="delete-refused"' not in page_client(owner).get(url).content.decode()  # a night that plainly has hands
    services.hand_void(hand=night.hands.get(number=1), by=owner, reason="保存后撤销")
    page = page_client(owner).get(url).content.decode()
    assert reverse("night-delete", args=[night.pk]) not in page
    assert "作废的也留在记录里，所以不能删除" in page
    assert 'id="delete-refused"' not in page_client(keeper).get(url).content.decode()  # not theirs to delete
    with pytest.raises(ValidationError) as refused:
        services.night_delete(night=night, by=owner)
    assert "都已作废" in refused.value.message_dict["night"][0]
    english = page_client(owner, lang="en").get(url).content.decode()
    assert "voided records are kept, so it cannot be deleted" in english
