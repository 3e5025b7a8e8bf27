"""Adjustments (罚分/调整) on the pages and live: the table page's small form (no script), its field errors, the
card between the hands (hand list, table page, view link), void and correct, the fragments and events."""
import pytest
from django.test import Client
from django.urls import reverse

from ledger.services import nights as services
from ledger.services.adjustments import adjustment_correct, adjustment_record, adjustment_void
from ledger.services import sharing as join_services
from ledger.models import Adjustment

from tests.factories import page_client as signed_in
from tests.hand_helpers import w, win

SELF_DRAW = {"events": [win(None, w(1))], "exhausted": True}
LATE = {"kind": "transfer", "from": "0", "to": "3", "amount": "5", "reason": "迟到"}


def test_the_table_page_offers_the_form_to_writers_only(night, owner, viewer):
    page = signed_in(owner).get(reverse("night-table", args=[night.pk])).content.decode()
    assert '<details class="card adjust" id="adjust" data-live-hide-closed>' in page
    assert f'action="/nights/{night.pk}/adjustments/new/"' in page
    assert 'name="kind" value="zha_hu"' in page and 'name="kind" value="transfer"' in page
    assert "东 · 张三" in page  # seats named with their players
    looker = signed_in(viewer).get(reverse("night-table", args=[night.pk])).content.decode()
    assert "adjustments/new/" not in looker


def test_saving_goes_back_to_the_table_with_a_message_and_the_card(night, owner):
    client = signed_in(owner)
    response = client.post(reverse("adjustment-create", args=[night.pk]), LATE, follow=True)
    assert response.redirect_chain[-1][0] == reverse("night-table", args=[night.pk])
    page = response.content.decode()
    assert "已记下罚分/调整 1" in page
    assert 'id="adjustment-1"' in page and "调整：张三 付 赵六 5（迟到）" in page
    assert Adjustment.objects.get().amount == 5


def test_a_zha_hu_from_the_form_takes_the_default_fan(night, owner):
    signed_in(owner).post(reverse("adjustment-create", args=[night.pk]), {"kind": "zha_hu", "player": "2", "fan": ""})
    made = Adjustment.objects.get()
    assert (made.payer_seat, made.fan, made.amount) == (2, 4, 32)


@pytest.mark.parametrize("data, message", [
    ({**LATE, "to": "0"}, "不能付给自己"),
    ({**LATE, "amount": "0"}, "金额必须大于 0"),
    ({**LATE, "amount": "1.234"}, "金额最多两位小数"),
    ({**LATE, "reason": ""}, "转账需要写明原因"),
])
def test_a_bad_entry_shows_the_fields_error_and_writes_nothing(night, owner, data, message):
    response = signed_in(owner).post(reverse("adjustment-create", args=[night.pk]), data)
    assert response.status_code == 200
    page = response.content.decode()
    assert message in page and 'class="error" role="alert"' in page
    assert not Adjustment.objects.exists()


def test_the_form_is_in_english_with_the_switch(night, owner):
    client = signed_in(owner)
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    page = client.get(reverse("night-table", args=[night.pk])).content.decode()
    assert "Penalty / adjustment" in page and "False win (诈胡)" in page


def test_members_may_not_post_adjustments_and_outsiders_get_404(night, viewer, outsider):
    assert signed_in(viewer).post(reverse("adjustment-create", args=[night.pk]), LATE).status_code == 403
    assert signed_in(outsider).post(reverse("adjustment-create", args=[night.pk]), LATE).status_code == 404
    assert not Adjustment.objects.exists()


def test_the_hand_list_shows_each_adjustment_between_the_hands_it_was_made_between(night, owner):
    adjustment_record(night=night, by=owner, data={"kind": "zha_hu", "player": 0, "fan": 0})  # before hand 1
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    adjustment_record(night=night, by=owner, data={"kind": "zha_hu", "player": 1, "fan": 0})  # after hand 1
    adjustment_record(night=night, by=owner, data={"kind": "zha_hu", "player": 2, "fan": 0})  # after hand 1
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    page = signed_in(owner).get(reverse("hand-list", args=[night.pk])).content.decode()
    order = [page.index(marker) for marker in ('id="hand-2"', 'id="adjustment-3"', 'id="adjustment-2"',
                                               'id="hand-1"', 'id="adjustment-1"')]
    assert order == sorted(order)  # newest first
    assert "第 1 局后" in page and "第一局前" in page


def test_the_table_page_shows_adjustments_since_the_last_hand(night, owner):
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    adjustment_record(night=night, by=owner, data={"kind": "zha_hu", "player": 1, "fan": 0})
    page = signed_in(owner).get(reverse("night-table", args=[night.pk])).content.decode()
    assert page.index('id="adjustment-1"') < page.index('id="hand-1"')
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    assert 'id="adjustment-1"' not in signed_in(owner).get(reverse("night-table", args=[night.pk])).content.decode()


def test_void_and_correct_from_the_pages(night, owner):
    client = signed_in(owner)
    made = adjustment_record(night=night, by=owner, data={**LATE, "from": 0, "to": 3})
    form = client.get(reverse("adjustment-correct", args=[night.pk, 1])).content.decode()
    assert 'value="5"' in form and "更正原因" in form
    refused = client.post(reverse("adjustment-correct", args=[night.pk, 1]), {**LATE, "amount": "8", "why": ""})
    assert refused.status_code == 200 and Adjustment.objects.get().version == 1
    done = client.post(reverse("adjustment-correct", args=[night.pk, 1]), {**LATE, "amount": "8", "why": "是八块"})
    assert done.status_code == 302
    made.refresh_from_db()
    assert (made.amount, made.version) == (8, 2)
    table = reverse("night-table", args=[night.pk])
    voided = client.post(reverse("adjustment-void", args=[night.pk, 1]), {"reason": "不算了"},
                         HTTP_REFERER=f"http://testserver{table}")
    assert voided["Location"] == table
    made.refresh_from_db()
    assert made.status == "voided"
    page = client.get(reverse("hand-list", args=[night.pk])).content.decode()
    assert "adjustment voided" in page and "已作废：不算了" in page.replace("\n", "")


def test_the_view_link_shows_adjustment_cards_without_controls(night, owner):
    adjustment_record(night=night, by=owner, data={"kind": "zha_hu", "player": 1, "fan": 1})
    link = join_services.link_renew(night=night, by=owner, kind="view")
    page = Client().get(reverse("view-link", args=[link.token])).content.decode()
    assert 'id="adjustment-1"' in page and "诈胡：李四 赔每家 4（1番）" in page and "更正或作废" not in page


def test_fragments_bring_new_and_changed_adjustments(night, owner):
    client = signed_in(owner)
    url = reverse("night-fragments", args=[night.pk])
    start = client.get(url, {"after": 0, "since": 0, "pieces": "seats"}).json()
    made = adjustment_record(night=night, by=owner, data={"kind": "zha_hu", "player": 1, "fan": 0})
    fresh = client.get(url, {"after": start["last"], "since": start["stamp"], "pieces": "seats"}).json()
    assert [(a["number"], a["after_hand"]) for a in fresh["adjustments"]] == [(1, 0)]
    assert "-6" in fresh["pieces"]["seats"]
    adjustment_void(adjustment=made, by=owner, reason="x")
    voided = client.get(url, {"after": fresh["last"], "since": fresh["stamp"], "pieces": ""}).json()
    assert "已作废" in voided["adjustments"][0]["html"]
    quiet = client.get(url, {"after": voided["last"], "since": voided["stamp"], "pieces": ""}).json()
    assert quiet["adjustments"] == []


def test_every_change_of_an_adjustment_is_told_live(night, owner, django_capture_on_commit_callbacks, monkeypatch):
    sent = []
    monkeypatch.setattr("ledger.services.events._send", lambda night_id, message: sent.append(message["event"]))
    with django_capture_on_commit_callbacks(execute=True):
        made = adjustment_record(night=night, by=owner, data={"kind": "zha_hu", "player": 1})
        adjustment_correct(adjustment=made, by=owner, reason="x", data={"kind": "zha_hu", "player": 2})
        adjustment_void(adjustment=made, by=owner, reason="y")
    assert [(e["kind"], e["adjustment"], e["number"]) for e in sent] == [
        ("adjustment_recorded", 1, None), ("adjustment_corrected", 1, None), ("adjustment_voided", 1, None)]


def test_the_audit_trail_says_each_adjustment_change_in_words(night, owner):
    made = adjustment_record(night=night, by=owner, data={**LATE, "from": 0, "to": 3})
    adjustment_correct(adjustment=made, by=owner, reason="是八块", data={**LATE, "from": 0, "to": 3, "amount": "8"})
    client = signed_in(owner)
    page = client.get(reverse("night-audit", args=[night.pk])).content.decode()
    assert "更正罚分/调整" in page and "罚分/调整 1" in page and "是八块" in page
    from ledger.models import AuditEntry
    entry = AuditEntry.objects.get(action=AuditEntry.Action.ADJUSTMENT_CORRECTED)
    change = client.get(reverse("night-audit-entry", args=[night.pk, entry.pk])).content.decode()
    assert "调整：张三 付 赵六 5（迟到）" in change and "调整：张三 付 赵六 8（迟到）" in change
    assert "张三 -8" in change
