"""The audit trail says money and set-up in words: a group's trail names each settlement's and each 标记已付's
transfers, which name was claimed, which evening was made; a night's creation says its rules, table fee, evening and
table number as the pages do, and its close each player's fee share (a walk read "kong_direct=2, …",
"{'mode': 'per_player', 'amount': '5'}", "evening: 3", and 标记已付 / 结算 with nothing after them)."""
import html
import re

from django.urls import reverse

from ledger.models import AuditEntry
from ledger.services import evenings
from ledger.services import nights as services
from ledger.services.groups import player_claim, player_unclaim

from tests.evening_helpers import DATE, NAMES, people, self_draw, table
from tests.factories import page_client as signed_in


def test_a_groups_trail_names_the_transfers_the_claimed_name_and_the_evening(owner, group):
    evening = evenings.evening_create(by=owner, group=group, title="周五麻将局", date=DATE, venue="老茶馆")
    night = table(owner, group, evening, NAMES[:4], fee={"mode": "per_player", "amount": "5"},
                  hands=[self_draw(1, "qing_yi_se")])
    services.night_close(night=night, by=owner)
    settlement = evenings.settle_evening(by=owner, evening=evening)
    first = settlement.transfers.order_by("position").first()
    evenings.transfer_mark_paid(by=owner, transfer=first)
    evenings.transfer_mark_unpaid(by=owner, transfer=first)
    player_claim(player=people(group)["王五"], user=owner)
    player_unclaim(group=group, user=owner)
    page = html.unescape(signed_in(owner).get(reverse("group-audit", args=[group.pk])).content.decode())
    # The amounts in the stake, as the evening's page says them (a walk: 标记已付：胖子 → 老王 27, in what?).
    line = f"{first.payer.name} → {first.payee.name if first.payee else '台费'} ¥{first.amount.normalize():f}"
    assert f"标记已付：{line}" in page and f"撤销已付：{line}" in page, page
    assert f"结算 周五麻将局：{line}" in page  # which evening it settled
    assert "owner 认领了 王五" in page and "owner 取消了认领 王五" in page
    assert "新建活动 周五麻将局（2026-11-27）" in page


def test_a_nights_creation_and_close_say_rules_fee_evening_and_shares_in_words(owner, group):
    evening = evenings.evening_create(by=owner, group=group, title="周五麻将局", date=DATE, venue="")
    night = table(owner, group, evening, NAMES[:4], fee={"mode": "per_player", "amount": "5"}, table_no=2,
                  hands=[self_draw(1)])
    services.night_close(night=night, by=owner)
    client = signed_in(owner)
    Action = AuditEntry.Action
    created = AuditEntry.objects.get(night=night, action=Action.NIGHT_CREATED)
    page = html.unescape(client.get(reverse("night-audit-entry", args=[night.pk, created.pk])).content.decode())
    assert "封顶番数：" in page and "kong_direct" not in page and "=" not in page.split("之后")[1].split("</ul>")[0]
    assert "台费：每人 ¥5" in page and "{'mode'" not in page
    assert "活动：周五麻将局（2026-11-27）" in page and "桌号：2" in page and "evening:" not in page
    closed = AuditEntry.objects.get(night=night, action=Action.NIGHT_CLOSED)
    page = html.unescape(client.get(reverse("night-audit-entry", args=[night.pk, closed.pk])).content.decode())
    assert "台费：张三 5、李四 5、王五 5、赵六 5" in page and "fee_shares" not in page, page
    created_page = html.unescape(client.get(reverse("night-audit-entry", args=[night.pk, created.pk])).content.decode())
    assert "底金：1" in created_page and "底金：1.00" not in created_page
    client.cookies["django_language"] = "en"
    english = html.unescape(client.get(reverse("night-audit-entry", args=[night.pk, created.pk]),
                                       HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert "kong_direct" not in english and "{'mode'" not in english and "Players: " in english


def test_the_players_page_says_which_account_claimed_a_name(owner, group):
    """It read "阿华 = 阿华" (the name, then the account that claimed it)."""
    from django.contrib.auth import get_user_model

    from ledger.services.groups import group_join, group_link_renew

    friend = get_user_model().objects.create_user("ahua", password="pw-ahua-2026")
    group_join(token=group_link_renew(group=group, by=owner).token, user=friend)
    player_claim(player=people(group)["李四"], user=friend)
    page = html.unescape(signed_in(owner).get(reverse("group-players", args=[group.pk])).content.decode())
    assert "账号 ahua 认领" in page and "= ahua" not in page


def test_leaving_a_group_asks_first(owner, group):
    page = signed_in(owner).get(reverse("group-members", args=[group.pk])).content.decode()
    form = re.search(r'<form method="post" id="leave"([^>]*)>', page)[1]
    assert "data-confirm=" in form and "确定退出" in html.unescape(form)
    assert "ledger/confirm.js" in page  # the script that asks


def test_a_groups_trail_says_a_nights_settlement_in_its_own_stake(owner, group):
    """Nights of one group need not share a stake: each settlement's amounts in its own (points, euros)."""
    from ledger.models import Night

    points = table(owner, group, None, NAMES[:4], hands=[self_draw(1, "qing_yi_se")], title="打分局")
    euros = table(owner, group, None, NAMES[:4], hands=[self_draw(2)], title="欧元局")
    Night.objects.filter(pk=points.pk).update(stake=Night.Stake.POINTS)
    Night.objects.filter(pk=euros.pk).update(currency="EUR")
    for night in (points, euros):
        services.night_close(night=night, by=owner)
        evenings.transfer_mark_paid(by=owner, transfer=evenings.settle_night(by=owner, night=night).transfers.first())
    page = html.unescape(signed_in(owner).get(reverse("group-audit", args=[group.pk])).content.decode())
    assert re.search(r"标记已付：\S+ → 李四 4 分<", page) and re.search(r"结算 打分局：(\S+ → 李四 4 分；?){3}<", page), page
    assert re.search(r"标记已付：\S+ → 王五 1 EUR<", page) and "¥" not in page


def test_the_table_fee_in_a_transfer_reads_in_the_pages_language(owner, group):
    """Settling writes "张三 → 台费 5" in its actor's language; an English page showed 台费 in Chinese."""
    from django.utils import translation

    from ledger.presenters.audit import transfer_words

    with translation.override("en"):
        assert transfer_words("张三 → 台费 5.0000") == "张三 → Table fee 5"
    with translation.override("zh-hans"):
        assert transfer_words("张三 → Table fee 5.0000") == "张三 → 台费 5"
        assert transfer_words("台费 → 李四 0.50") == "台费 → 李四 0.5"
