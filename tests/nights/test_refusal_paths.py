"""Every refusal of a state says where (issue 16, item 10): a closed night at `night`, a voided hand at `hand`, a
voided adjustment at `adjustment`, an evening at `evening`, a settlement at `settlement`, a carried transfer at
`transfer`, an invite at `token`, a role change at `user` / `role`, a claim at `player`, an unknown page action at
`action`; the API answers 400 with that path and the message, nothing is written, and the pages still show the
message where the user sees it."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from ledger.services import nights as services
from ledger.services.adjustments import adjustment_record, adjustment_void
from ledger.services import evenings as paying
from ledger.models import Settlement, SettlementTransfer
from ledger.services import sharing as join_services
from ledger.models import Adjustment, AuditEntry, Confirmation, FeeShare, Hand, HandRevision, Player

from tests.conftest import api_client
from tests.evening_helpers import DATE, NAMES, on_discard, self_draw, table, two_tables
from tests.factories import page_client as signed_in
from tests.factories import post_json as post
from tests.hand_helpers import w, win

pytestmark = pytest.mark.django_db

SELF_DRAW = {"events": [win(None, w(1, "qing_yi_se", 1))], "exhausted": True}
LATE = {"kind": "transfer", "from": 0, "to": 3, "amount": "5", "reason": "迟到"}
CLOSED = "这一场已经结束，不能再修改"


def state():
    """Everything a refused write could have touched: row counts, and the values a void, a correction, a mark or a
    confirmation changes in place."""
    return {
        "counts": [m.objects.count() for m in (AuditEntry, Hand, HandRevision, Adjustment, Settlement,
                                               SettlementTransfer, Confirmation, FeeShare)],
        "hands": sorted(Hand.objects.values_list("pk", "status", "void_reason")),
        "revisions": sorted(HandRevision.objects.values_list("pk", "is_current")),
        "adjustments": sorted(Adjustment.objects.values_list("pk", "status", "version", "amount")),
        "transfers": sorted(SettlementTransfer.objects.values_list("pk", "paid_at", "carried_into_id")),
    }


def refused(response, path, message, status=400):
    assert response.status_code == status, response.content
    assert response.json() == {"errors": [{"path": path, "message": message}]}


def shown(response):
    assert response.status_code == 200
    return response.content.decode()


# ---- the API: path, message, status, nothing written ------------------------------------------------------------

@pytest.fixture
def closed(night, owner):
    """A closed night with one hand and one adjustment."""
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    adjustment_record(night=night, by=owner, data=LATE)
    services.night_close(night=night, by=owner)
    return night


@pytest.mark.parametrize("name, args, body", [
    ("api-hands", (), SELF_DRAW),
    ("api-hand-correct", (1,), {**SELF_DRAW, "reason": "写错了"}),
    ("api-hand-void", (1,), {"reason": "不算"}),
    ("api-adjustments", (), LATE),
    ("api-adjustment-correct", (1,), {"reason": "写错了", "adjustment": {**LATE, "amount": "7"}}),
    ("api-adjustment-void", (1,), {"reason": "不算"}),
])
def test_a_closed_night_refuses_every_change_at_night(closed, owner, name, args, body):
    before = state()
    refused(post(api_client(owner), reverse(name, args=[closed.pk, *args]), body), "night", CLOSED)
    assert state() == before


def test_the_closed_night_refusal_in_english(closed, owner):
    response = post(api_client(owner), reverse("api-hands", args=[closed.pk]), SELF_DRAW, HTTP_ACCEPT_LANGUAGE="en")
    refused(response, "night", "This night is closed and can no longer change")


@pytest.mark.parametrize("name, body, message", [
    ("api-hand-correct", {**SELF_DRAW, "reason": "写错了"}, "已作废的局不能更正"),
    ("api-hand-void", {"reason": "又不算"}, "这一局已经作废"),
])
def test_a_voided_hand_is_refused_at_hand(night, owner, name, body, message):
    hand = services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    services.hand_void(hand=hand, by=owner, reason="不算")
    before = state()
    refused(post(api_client(owner), reverse(name, args=[night.pk, 1]), body), "hand", message)
    assert state() == before


@pytest.mark.parametrize("name, body, message", [
    ("api-adjustment-correct", {"reason": "写错了", "adjustment": {**LATE, "amount": "7"}}, "已作废的罚分/调整不能更正"),
    ("api-adjustment-void", {"reason": "又不算"}, "这一项已经作废"),
])
def test_a_voided_adjustment_is_refused_at_adjustment(night, owner, name, body, message):
    adjustment_void(adjustment=adjustment_record(night=night, by=owner, data=LATE), by=owner, reason="不算")
    before = state()
    refused(post(api_client(owner), reverse(name, args=[night.pk, 1]), body), "adjustment", message)
    assert state() == before


def test_an_open_night_cannot_be_confirmed_at_night(night, viewer, players):
    players[2].user = viewer  # the viewer claimed 王五
    players[2].save()
    before = state()
    refused(post(api_client(viewer), reverse("api-confirm", args=[night.pk])), "night", "牌局结束后才能确认结果")
    assert state() == before


def test_an_evening_without_tables_is_refused_at_evening(owner, group):
    evening = paying.evening_create(by=owner, group=group, title="周五麻将局", date=DATE)
    before = state()
    refused(post(api_client(owner), reverse("api-evening-settle", args=[evening.pk])), "evening", "这个活动还没有牌桌")
    assert state() == before


def test_an_evening_with_an_open_table_is_refused_at_evening(owner, group):
    evening, _first, _second = two_tables(owner, group, close=False)
    before = state()
    refused(post(api_client(owner), reverse("api-evening-settle", args=[evening.pk])), "evening",
            "还有牌桌没结束：先结束所有牌桌再结算")
    assert state() == before


def test_a_table_of_an_evening_is_settled_with_the_evening_refused_at_night(owner, group):
    _evening, first, _second = two_tables(owner, group)
    before = state()
    refused(post(api_client(owner), reverse("api-night-settle", args=[first.pk])), "night",
            "这一桌属于一个活动：在活动页面一起结算")
    assert state() == before


def test_an_open_night_cannot_be_settled_at_night(night, owner):
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    before = state()
    refused(post(api_client(owner), reverse("api-night-settle", args=[night.pk])), "night", "先结束牌局再结算")
    assert state() == before


def closed_night(owner, group, hands, title):
    return services.night_close(night=table(owner, group, None, NAMES[:4], hands=hands, title=title), by=owner)


def test_settling_twice_is_refused_at_settlement(owner, group):
    night = closed_night(owner, group, [on_discard(1, 0)], "一场")
    paying.settle_night(by=owner, night=night)
    before = state()
    refused(post(api_client(owner), reverse("api-night-settle", args=[night.pk])), "settlement", "已经结算过了")
    assert state() == before


def test_a_carried_transfer_is_refused_at_transfer(owner, group):
    first = paying.settle_night(by=owner, night=closed_night(owner, group, [on_discard(1, 0)], "一场"))
    paying.settle_night(by=owner, night=closed_night(owner, group, [self_draw(2)], "二场"), include_carry=True)
    carried = first.transfers.get()
    assert carried.carried_into_id is not None
    before = state()
    refused(post(api_client(owner), reverse("api-transfer-paid", args=[first.pk, carried.position])), "transfer",
            "这笔已经并入之后的结算，在那边付")
    assert state() == before


# ---- the night's members (pages only): the services' paths -----------------------------------------------------

def message_dict(call):
    with pytest.raises(ValidationError) as caught:
        call()
    return caught.value.message_dict


def test_the_night_membership_refusals_name_their_field(night, owner, viewer, outsider, players):
    before = state()
    assert message_dict(lambda: join_services.night_join(token="nope", user=outsider)) == {"token": ["邀请链接已失效"]}
    assert message_dict(lambda: join_services.member_set_role(night=night, by=owner, user=owner, role="member")) == {
        "user": ["牌局主人不能改角色"]}
    assert message_dict(lambda: join_services.member_set_role(night=night, by=owner, user=outsider,
                                                              role="member")) == {"user": ["这个人不是这一场的成员"]}
    assert message_dict(lambda: join_services.member_set_role(night=night, by=owner, user=viewer,
                                                              role="boss")) == {"role": ["未知的角色"]}
    assert message_dict(lambda: join_services.member_remove(night=night, by=owner, user=owner)) == {
        "user": ["牌局主人不能移除自己"]}
    stranger = Player.objects.create(group=players[0].group, name="路人")
    assert message_dict(lambda: join_services.player_claim(night=night, user=viewer, player=stranger)) == {
        "player": ["这个名字不在这一场"]}
    assert state() == before
    assert night.members.filter(pk=viewer.pk).exists() and not night.scorekeepers.filter(pk=viewer.pk).exists()
    assert not Player.objects.filter(user=viewer).exists()


def test_the_night_members_page_shows_the_refusals(night, owner, players):
    client = signed_in(owner)
    url = reverse("night-members", args=[night.pk])
    assert "牌局主人不能改角色" in shown(client.post(url, {"action": "member", "user": owner.pk}, follow=True))
    assert "牌局主人不能移除自己" in shown(client.post(url, {"action": "remove", "user": owner.pk}, follow=True))
    assert "未知的操作" in shown(client.post(url, {"action": "bogus"}, follow=True))
    stranger = Player.objects.create(group=players[0].group, name="路人")
    assert "这个名字不在这一场" in shown(client.post(url, {"action": "claim", "player": stranger.pk}, follow=True))
    assert stranger.user_id is None and night.owner_id == owner.pk


def test_the_group_pages_show_an_unknown_action(owner, group):
    client = signed_in(owner)
    before = state()
    for name in ("group-players", "group-members"):
        assert "未知的操作" in shown(client.post(reverse(name, args=[group.pk]), {"action": "bogus"}, follow=True))
    assert state() == before


# ---- the pages: the message where the user sees it --------------------------------------------------------------

def test_the_pages_show_the_closed_night(closed, owner):
    client = signed_in(owner)
    before = state()
    void = client.post(reverse("hand-void", args=[closed.pk, 1]), {"reason": "不算"}, follow=True)
    assert CLOSED in shown(void)
    seat = client.post(reverse("seat-change", args=[closed.pk]), {"seat": 0, "player": "新来的"}, follow=True)
    assert CLOSED in shown(seat)
    adjustment = client.post(reverse("adjustment-create", args=[closed.pk]), {**LATE, "from": "0", "to": "3"})
    assert CLOSED in shown(adjustment)  # the form's own error, above it
    correct = client.post(reverse("adjustment-correct", args=[closed.pk, 1]), {**LATE, "amount": "8", "why": "是八块"})
    assert CLOSED in shown(correct)
    void = client.post(reverse("adjustment-void", args=[closed.pk, 1]), {"reason": "不算"}, follow=True)
    assert CLOSED in shown(void)
    assert state() == before


def test_the_pages_show_a_voided_hand_and_a_voided_adjustment(night, owner):
    client = signed_in(owner)
    services.hand_void(hand=services.hand_record(night=night, by=owner, entry=SELF_DRAW), by=owner, reason="不算")
    adjustment_void(adjustment=adjustment_record(night=night, by=owner, data=LATE), by=owner, reason="不算")
    before = state()
    again = client.post(reverse("hand-void", args=[night.pk, 1]), {"reason": "又不算"}, follow=True)
    assert "这一局已经作废" in shown(again)
    again = client.post(reverse("adjustment-void", args=[night.pk, 1]), {"reason": "又不算"}, follow=True)
    assert "这一项已经作废" in shown(again)
    correct = client.post(reverse("adjustment-correct", args=[night.pk, 1]), {**LATE, "amount": "8", "why": "是八块"})
    assert "已作废的罚分/调整不能更正" in shown(correct)
    assert state() == before


def test_the_pages_show_the_settling_and_confirming_refusals(night, owner, viewer, players, group):
    client = signed_in(owner)
    services.hand_record(night=night, by=owner, entry=SELF_DRAW)
    players[2].user = viewer
    players[2].save()
    before = state()
    confirm = signed_in(viewer).post(reverse("night-confirm", args=[night.pk]), follow=True)
    assert "牌局结束后才能确认结果" in shown(confirm)
    settle = client.post(reverse("night-settle-up", args=[night.pk]), follow=True)
    assert "先结束牌局再结算" in shown(settle)
    assert state() == before
    evening, _first, _second = two_tables(owner, group, close=False)
    before = state()
    settle = client.post(reverse("evening-settle", args=[evening.pk]), follow=True)
    assert "还有牌桌没结束：先结束所有牌桌再结算" in shown(settle)
    assert state() == before
