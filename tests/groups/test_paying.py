"""Paying up: transfers marked paid (by the payer, the payee or the group's keepers, audited), what is unpaid carried
into the group's running balance and, when asked, into the next settlement — exactly once."""
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.template.loader import render_to_string
from django.test import Client, RequestFactory

from ledger.services import nights as services
from ledger.selectors import evenings as selectors
from ledger.selectors.nights import night_summary, night_totals
from ledger.services import evenings as paying
from ledger.models import GroupMember, SettlementTransfer
from ledger.models import AuditEntry

from tests.conftest import api_client
from tests.evening_helpers import DATE, NAMES, on_discard, people, self_draw, table

pytestmark = pytest.mark.django_db


def closed_night(owner, group, hands, names=NAMES[:4], title="一场"):
    night = table(owner, group, None, names, hands=hands, title=title)
    return services.night_close(night=night, by=owner)


def outstanding_by_pair(group):
    return sorted((selectors.party_name(t.payer), selectors.party_name(t.payee), t.amount)
                  for t in selectors.outstanding(group).select_related("payer", "payee"))


def test_unpaid_transfers_carry_into_the_next_settlement_exactly_once(owner, group):
    first = paying.settle_night(by=owner, night=closed_night(owner, group, [self_draw(1), on_discard(0, 2)]))
    transfers = list(first.transfers.order_by("position"))
    assert len(transfers) >= 2
    paying.transfer_mark_paid(by=owner, transfer=transfers[0])
    unpaid = transfers[1:]
    balance_before = {b.who.name: b.amount for b in selectors.group_balance(group)}
    assert sum(balance_before.values()) == 0

    second_night = closed_night(owner, group, [self_draw(2)], title="二场")
    second = paying.settle_night(by=owner, night=second_night, include_carry=True)
    # The second settlement settles the second night's nets plus what was still owed from the first.
    from ledger.selectors.nights import night_summary
    expected = {pk: a for pk, a in night_summary(second_night).nets.items()}
    for t in unpaid:
        expected[t.payer_id] -= t.amount
        expected[t.payee_id] += t.amount
    got = {pk: Decimal(0) for pk in expected}
    for t in second.transfers.all():
        got[t.payer_id] -= t.amount
        got[t.payee_id] += t.amount
    assert got == expected
    assert {t.pk for t in second.carried.all()} == {t.pk for t in unpaid}  # carried into the second
    assert SettlementTransfer.objects.get(pk=transfers[0].pk).carried_into is None  # paid: not carried
    # Only the second settlement's transfers are owed now; the first's unpaid ones are not counted twice.
    assert outstanding_by_pair(group) == sorted((selectors.party_name(t.payer), selectors.party_name(t.payee),
                                                 t.amount) for t in second.transfers.select_related("payer", "payee"))

    third = paying.settle_night(by=owner, night=closed_night(owner, group, [self_draw(3)], title="三场"),
                                include_carry=True)
    assert {SettlementTransfer.objects.get(pk=t.pk).carried_into_id for t in unpaid} == {second.pk}  # once only
    assert set(third.carried.values_list("pk", flat=True)) == set(second.transfers.values_list("pk", flat=True))
    assert third.include_carry and AuditEntry.objects.filter(action=AuditEntry.Action.SETTLED).count() == 3


def test_without_carrying_the_unpaid_stay_in_the_running_balance(owner, group):
    first = paying.settle_night(by=owner, night=closed_night(owner, group, [self_draw(1)]))
    second = paying.settle_night(by=owner, night=closed_night(owner, group, [self_draw(1)], title="二场"))
    assert not second.carried.exists() and not second.include_carry
    balance = {b.who.name: b.amount for b in selectors.group_balance(group)}
    assert balance["李四"] == sum(t.amount for s in (first, second) for t in s.transfers.all())
    assert sum(balance.values()) == 0
    api = api_client(owner).get(f"/api/groups/{group.pk}/balance/").json()
    assert {b["player"]: Decimal(b["amount"]) for b in api["balance"]} == balance
    assert len(api["outstanding"]) == first.transfers.count() + second.transfers.count()


def test_who_marked_a_transfer_paid_is_said_by_the_name_they_claimed_at_the_table(owner, group):
    """A walk: 已付 12-07 05:53 · demo named the account; the table knows its owner as the name claimed (这是我)."""
    from ledger.models import Player
    night = closed_night(owner, group, [self_draw(1)])
    settlement = paying.settle_night(by=owner, night=night)
    paying.transfer_mark_paid(by=owner, transfer=settlement.transfers.get(position=1))
    page = Client()
    page.force_login(owner)
    assert "· owner" in page.get(f"/nights/{night.pk}/settle/").content.decode()
    Player.objects.filter(group=group, name="张三").update(user=owner)
    shown = page.get(f"/nights/{night.pk}/settle/").content.decode()
    assert "· 张三" in shown and "· owner" not in shown


def test_marking_paid_and_unpaid_is_audited_with_who_and_when(owner, group):
    settlement = paying.settle_night(by=owner, night=closed_night(owner, group, [self_draw(1)]))
    transfer = settlement.transfers.get(position=1)
    paid = paying.transfer_mark_paid(by=owner, transfer=transfer)
    assert paid.paid_at is not None and paid.paid_by == owner
    entry = AuditEntry.objects.get(action=AuditEntry.Action.TRANSFER_PAID)
    assert entry.group == group and entry.actor == owner
    assert entry.before["paid_at"] is None and entry.after["paid_by"] == "owner"
    assert entry.after["transfer"].endswith("→ 李四 1") and entry.after["position"] == 1
    paying.transfer_mark_paid(by=owner, transfer=transfer)  # again: nothing changes, nothing written
    assert AuditEntry.objects.filter(action=AuditEntry.Action.TRANSFER_PAID).count() == 1
    unpaid = paying.transfer_mark_unpaid(by=owner, transfer=transfer)
    assert unpaid.paid_at is None and unpaid.paid_by is None
    undo = AuditEntry.objects.get(action=AuditEntry.Action.TRANSFER_UNPAID)
    assert undo.before["paid_by"] == "owner" and undo.after["paid_at"] is None


def test_the_payer_or_payee_may_mark_but_other_members_may_not(owner, group, viewer, keeper, outsider):
    GroupMember.objects.create(group=group, user=viewer, role=GroupMember.Role.MEMBER)
    GroupMember.objects.create(group=group, user=keeper, role=GroupMember.Role.MEMBER)
    players = people(group)
    players["张三"].user = viewer
    players["张三"].save()
    settlement = paying.settle_night(by=owner, night=closed_night(owner, group, [self_draw(1)]))
    mine = settlement.transfers.get(payer=players["张三"])
    other = settlement.transfers.exclude(payer=players["张三"]).first()
    url = f"/api/settlements/{settlement.pk}/transfers/{{}}/paid/"
    assert api_client(viewer).post(url.format(mine.position), {}, format="json").status_code == 200
    assert api_client(viewer).post(url.format(other.position), {}, format="json").status_code == 403
    assert api_client(keeper).post(url.format(other.position), {}, format="json").status_code == 403
    assert api_client(outsider).post(url.format(other.position), {}, format="json").status_code == 404
    assert api_client(owner).post(url.format(99), {}, format="json").status_code == 404
    assert api_client(owner).post(url.format(other.position), {}, format="json").json()["paid_by"] == "owner"
    with pytest.raises(PermissionDenied):
        paying.transfer_mark_unpaid(by=keeper, transfer=mine)
    page = Client()
    page.force_login(viewer)
    response = page.post(f"/settlements/{settlement.pk}/transfers/{mine.position}/unpaid/",
                         {"next": f"/nights/{settlement.night_id}/settle/"})
    # Back at the transfer marked (a walk: with eight transfers each mark came back at the top of the page).
    assert response.status_code == 302
    assert response["Location"] == f"/nights/{settlement.night_id}/settle/#transfer-{mine.position}"
    assert f'id="transfer-{mine.position}"' in page.get(f"/nights/{settlement.night_id}/settle/").content.decode()
    assert SettlementTransfer.objects.get(pk=mine.pk).paid_at is None
    evil = page.post(f"/settlements/{settlement.pk}/transfers/{mine.position}/paid/", {"next": "https://evil.example/"})
    assert evil["Location"] == f"/nights/{settlement.night_id}/settle/"


def test_a_carried_transfer_is_paid_in_the_later_settlement_not_the_old_one(owner, group):
    first = paying.settle_night(by=owner, night=closed_night(owner, group, [self_draw(1)]))
    paying.settle_night(by=owner, night=closed_night(owner, group, [self_draw(2)], title="二场"), include_carry=True)
    old = first.transfers.get(position=1)
    with pytest.raises(ValidationError):
        paying.transfer_mark_paid(by=owner, transfer=old)
    response = api_client(owner).post(f"/api/settlements/{first.pk}/transfers/1/paid/", {}, format="json")
    assert response.status_code == 400


def test_the_group_section_lists_evenings_and_the_running_balance(owner, group):
    paying.evening_create(by=owner, group=group, title="周五麻将局", date=DATE)
    paying.settle_night(by=owner, night=closed_night(owner, group, [self_draw(1)]))
    request = RequestFactory().get("/")
    request.user = owner
    html = render_to_string("evenings/_group_section.html", {"group": group, "user": owner}, request)
    assert "周五麻将局" in html and "新活动" in html and "李四" in html and "+3" in html


def test_a_settlement_carried_on_says_so_and_where_not_all_paid(owner, group):
    """Last week's settlement, every transfer carried into this week's: its badge said 都付清了 (all paid) though
    nothing was paid. It says how many went on, and each points to the settlement where it is paid now."""
    from django.urls import reverse

    week_one = paying.evening_create(by=owner, group=group, title="上周五", date=DATE)
    table(owner, group, week_one, NAMES[:4], hands=[self_draw(1)])
    for night in week_one.nights.all():
        services.night_close(night=night, by=owner)
    first = paying.settle_evening(by=owner, evening=week_one)
    week_two = paying.evening_create(by=owner, group=group, title="本周五", date=DATE)
    table(owner, group, week_two, NAMES[:4], hands=[self_draw(2)])
    for night in week_two.nights.all():
        services.night_close(night=night, by=owner)
    paying.settle_evening(by=owner, evening=week_two, include_carry=True)
    page = Client()
    page.force_login(owner)
    html = page.get(reverse("evening", args=[week_one.pk])).content.decode()
    assert "都付清了" not in html and f"{first.transfers.count()} 笔已并入之后的结算" in html
    assert f'href="{reverse("evening", args=[week_two.pk])}">本周五（{DATE:%m-%d}）' in html


def test_the_settle_form_shows_what_carrying_would_fix_before_it_is_ticked(owner, group):
    """Ticking 把之前没付的一起结 changed nothing on the page: the table settled without seeing the result. The form
    holds the transfers it would fix and the unpaid ones it folds in (shown while ticked), and they are what 结算
    then fixes."""
    import html
    import re

    from django.urls import reverse

    last_week = paying.settle_night(by=owner, night=closed_night(owner, group, [self_draw(1)], title="上周"))
    now = closed_night(owner, group, [on_discard(2, 3)], title="本周")
    client = Client()
    client.force_login(owner)
    page = html.unescape(client.get(reverse("night-settle", args=[now.pk])).content.decode())
    preview = re.search(r'<div class="carry-preview" id="carry-preview">(.*?)</ul>\s*</div>', page, re.S)[1]
    shown = re.findall(r"<li>(\S+) → (\S+) <strong>(.*?)</strong></li>", preview)
    carried = [t for t in last_week.transfers.all()]
    assert all(f"{t.payer.name} → {t.payee.name} ¥{t.amount.normalize():f} · 上周" in preview for t in carried), preview
    people = check_people(preview, now, carried)
    assert any(now and before for now, before, _together in people.values())  # a line with both
    fixed = paying.settle_night(by=owner, night=now, include_carry=True)
    assert shown and shown == [(t.payer.name, t.payee.name, f"¥{t.amount.normalize():f}") for t in fixed.transfers.all()]
    check_settled(people, fixed)


def sums(transfers):
    """Each party's net of some transfers, by name (the payee is owed, the payer owes)."""
    net: dict[str, Decimal] = {}
    for t in transfers:
        for party, sign in ((t.payer, -1), (t.payee, 1)):
            name = selectors.party_name(party)
            net[name] = net.get(name, Decimal(0)) + sign * t.amount
    return net


def check_people(preview, night, carried):
    """The carry-over preview's line per person (a walk: who owed what of it was not shown): this night's net ("·"
    for one not in it), the earlier unpaid transfers folded in, the two together."""
    import re
    rows = re.findall(r'<tr(?: class="fee-line")?><th scope="row">(\S+)</th><td>(\S+)</td><td>(\S+)</td>'
                      r'<td class="total">(\S+)</td></tr>', preview)
    people = {name: [None if x == "·" else Decimal(x) for x in amounts] for name, *amounts in rows}
    summary = night_summary(night)
    tonight = {t.player.name: t.amount for t in night_totals(night)}
    if summary.fee:
        tonight[selectors.party_name(None)] = summary.fee
    earlier = sums(carried)
    lines = {name: [tonight.get(name), earlier.get(name, Decimal(0)), tonight.get(name, 0) + earlier.get(name, 0)]
             for name in set(tonight) | set(earlier)}
    assert people == {name: line for name, line in lines.items() if line[0] or line[2]}, people
    return people


def check_settled(people, fixed):
    """The fixed transfers settle the "together" column exactly."""
    assert {name: together for name, (_n, _e, together) in people.items() if together} == sums(fixed.transfers.all())


def test_the_carry_over_lines_hold_the_table_fee_and_people_not_at_this_table(owner, group):
    """A review: the fee (a party of its own, 台费) on both nights, and players owed from last week who did not sit
    tonight ("·" this time, not 0, as the evening's grid marks them)."""
    import html
    import re

    from django.urls import reverse

    fee = {"mode": "per_player", "amount": "5"}
    last_week = paying.settle_night(by=owner, night=services.night_close(night=table(
        owner, group, None, NAMES[4:], fee=fee, hands=[self_draw(1, "qing_yi_se")], title="上周"), by=owner))
    now = services.night_close(night=table(owner, group, None, NAMES[:4], fee=fee, hands=[on_discard(2, 3)],
                                           title="本周"), by=owner)
    client = Client()
    client.force_login(owner)
    page = html.unescape(client.get(reverse("night-settle", args=[now.pk])).content.decode())
    preview = re.search(r'<div class="carry-preview" id="carry-preview">(.*?)</ul>\s*</div>', page, re.S)[1]
    people = check_people(preview, now, list(last_week.transfers.all()))
    assert people["周八"][0] is None and people["周八"][2]          # owed from last week, not at this table
    assert people["台费"][0] == 20 and people["台费"][1] == 20      # the fee of both nights, 4 x 5 each
    assert '<tr class="fee-line"><th scope="row">台费</th>' in preview
    check_settled(people, paying.settle_night(by=owner, night=now, include_carry=True))


def test_a_nights_settlement_carried_into_another_nights_names_that_night(owner, group):
    """A walk: a night's transfers carried into the next night's settlement said 已并入之后的结算：那一场的结算 →,
    naming no night. They name it now, as an evening's are named."""
    from django.urls import reverse

    first = services.night_close(night=table(owner, group, None, NAMES[:4], hands=[self_draw(1)], title="第一周"),
                                 by=owner)
    paying.settle_night(by=owner, night=first)
    second = services.night_close(night=table(owner, group, None, NAMES[:4], hands=[self_draw(2)], title="第二周"),
                                  by=owner)
    paying.settle_night(by=owner, night=second, include_carry=True)
    page = Client()
    page.force_login(owner)
    html = page.get(reverse("night-settle", args=[first.pk])).content.decode()
    assert f'href="{reverse("night-settle", args=[second.pk])}">第二周（{second.date:%m-%d}）' in html, html


def test_a_nights_report_says_which_of_its_transfers_went_into_a_later_settlement(owner, group):
    """A walk: night 1's PDF said "All paid, or carried into a later settlement" while 陈 still owed 周 ¥113 in night
    2's settlement. Its reports name each such transfer and where it is paid now; a reader outside the group is told
    no names."""
    from ledger.reports import night_report, render

    first_night = closed_night(owner, group, [self_draw(1)])
    first = paying.settle_night(by=owner, night=first_night)
    owed = list(first.transfers.select_related("payer", "payee").order_by("position"))
    second_night = closed_night(owner, group, [self_draw(2)], title="二场")
    paying.settle_night(by=owner, night=second_night, include_carry=True)
    text = render("txt", night_report(first_night), "zh")[2].decode()
    for t in owed:
        assert f"{t.payer.name} → {t.payee.name} ¥{t.amount:.0f} · 二场（{DATE:%m-%d}）" in text, text
    assert "\n\n并入之后结算的（在那里付，这里不付）：\n" in text  # each debt on a line of its own below
    english = render("txt", night_report(first_night), "en")[2].decode()
    assert "Carried into a later settlement (pay them there, not here):\n" in english
    outsider = render("txt", night_report(first_night, evening_visible=False), "zh")[2].decode()
    assert "并入之后结算的" not in outsider
