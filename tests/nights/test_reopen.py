"""重新打开牌局: a night closed too early takes hands again while nothing is settled on it (a walk found no way
back from 结束牌局). What the close fixed goes (fee shares, confirmations), with audit entries; a settled night, on its
own or with its evening, stays closed; the page offers it exactly when the service allows it."""
import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from ledger.models import AuditEntry, Confirmation, FeeShare, Night
from ledger.presenters.audit import entry_change
from ledger.services import confirmations as confirming
from ledger.services import evenings
from ledger.services import nights as services

from tests.conftest import api_client
from tests.factories import page_client, post_json
from tests.hand_helpers import w, win

SELF_DRAW = {"events": [win(None, w(1, "qing_yi_se", 1))], "exhausted": True}


@pytest.fixture
def closed(owner, players, viewer):
    """A closed night of one hand, with a table fee, confirmed by the viewer (who claimed 王五)."""
    night = services.night_create(owner=owner, title="周五夜", date=dt.date(2026, 11, 27), base=Decimal("2"),
                                  players=players, first_dealer=0, members=[viewer],
                                  fee={"mode": "per_player", "amount": "5"})
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    players[2].user = viewer
    players[2].save()
    services.night_close(night=night, by=owner)
    confirming.night_confirm(night=night, user=viewer)
    return Night.objects.get(pk=night.pk)


def test_a_closed_night_reopens_takes_hands_and_closes_again(closed, owner):
    assert FeeShare.objects.filter(night=closed).count() == 4 and Confirmation.objects.count() == 1
    services.night_reopen(night=closed, by=owner)
    night = Night.objects.get(pk=closed.pk)
    assert not night.is_closed and night.closed_at is None
    assert not FeeShare.objects.filter(night=night).exists()  # fixed again at the next close
    assert not Confirmation.objects.exists()  # given on totals that may change
    actions = list(AuditEntry.objects.filter(night=night).order_by("id").values_list("action", flat=True))
    assert actions[-2:] == [AuditEntry.Action.CONFIRMS_CLEARED, AuditEntry.Action.NIGHT_REOPENED]
    reopened = AuditEntry.objects.get(night=night, action=AuditEntry.Action.NIGHT_REOPENED)
    assert reopened.before["fee_shares"] == {"张三": "5.0000", "李四": "5.0000", "王五": "5.0000", "赵六": "5.0000"}
    assert "台费：张三 5、李四 5、王五 5、赵六 5" in entry_change(reopened)["before"]  # the shares that went, audited
    cleared = AuditEntry.objects.get(night=night, action=AuditEntry.Action.CONFIRMS_CLEARED)
    assert cleared.before == {"confirmed": ["王五"]} and cleared.after == {"cause": "reopened"}
    assert confirming.clearing_note(night) == "确认已清除：牌局重新打开了"
    services.hand_record(night=night, by=owner, entry={"events": [win(None, w(2))], "exhausted": True})
    services.night_close(night=night, by=owner)
    assert FeeShare.objects.filter(night=night).count() == 4
    services.night_reopen(night=Night.objects.get(pk=night.pk), by=owner)
    services.night_reopen(night=Night.objects.get(pk=night.pk), by=owner)  # open already: nothing changes
    assert AuditEntry.objects.filter(night=night, action=AuditEntry.Action.NIGHT_REOPENED).count() == 2


def test_a_settled_night_stays_closed(closed, owner):
    evenings.settle_night(by=owner, night=closed)
    with pytest.raises(ValidationError) as refused:
        services.night_reopen(night=closed, by=owner)
    assert refused.value.message_dict == {"night": ["这一场已经结算，不能再打开"]}
    assert Night.objects.get(pk=closed.pk).is_closed and Confirmation.objects.count() == 1


def test_a_table_of_a_settled_evening_stays_closed(owner, group, players):
    evening = evenings.evening_create(by=owner, group=group, title="周六", date=dt.date(2026, 12, 5))
    table = services.night_create(owner=owner, title="1 号桌", date=evening.date, base=Decimal(1), players=players,
                                  first_dealer=0, evening=evening, table_no=1)
    services.hand_record(night=table, by=owner, entry=SELF_DRAW)
    services.night_close(night=table, by=owner)
    evenings.settle_evening(by=owner, evening=evening)
    with pytest.raises(ValidationError):
        services.night_reopen(night=table, by=owner)


def test_only_those_who_may_write_the_night_reopen_it(closed, viewer):
    with pytest.raises(PermissionDenied):
        services.night_reopen(night=closed, by=viewer)
    assert Night.objects.get(pk=closed.pk).is_closed


def test_the_settle_page_offers_reopening_exactly_when_it_is_allowed(closed, owner, viewer):
    url = reverse("night-settle", args=[closed.pk])
    reopen = reverse("night-reopen", args=[closed.pk])
    assert f'action="{reopen}"' in page_client(owner).get(url).content.decode()
    assert f'action="{reopen}"' not in page_client(viewer).get(url).content.decode()  # a member who cannot write
    assert page_client(viewer).post(reopen).status_code == 403
    answer = page_client(owner).post(reopen)
    assert answer.status_code == 302 and answer["Location"] == reverse("night-table", args=[closed.pk])
    assert not Night.objects.get(pk=closed.pk).is_closed
    assert f'action="{reopen}"' not in page_client(owner).get(url).content.decode()  # open: 结束牌局 instead
    services.night_close(night=closed, by=owner)
    evenings.settle_night(by=owner, night=closed)
    page = page_client(owner).get(url).content.decode()
    assert f'action="{reopen}"' not in page
    answer = page_client(owner, lang="en").post(reopen, follow=True)
    assert "This night is settled: it cannot be reopened" in answer.content.decode()


def test_the_api_reopens_a_night_and_refuses_a_settled_one_with_its_path(closed, owner):
    client = api_client(owner)
    answer = post_json(client, f"/api/nights/{closed.pk}/reopen/", {})
    assert answer.status_code == 200 and answer.json()["is_closed"] is False
    post_json(client, f"/api/nights/{closed.pk}/close/", {})
    evenings.settle_night(by=owner, night=Night.objects.get(pk=closed.pk))
    refused = post_json(client, f"/api/nights/{closed.pk}/reopen/", {}, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 400
    assert refused.json()["errors"] == [{"path": "night", "message": "This night is settled: it cannot be reopened"}]
