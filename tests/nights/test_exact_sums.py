"""Totals are exact on every database: SQLite adds a decimal column as binary floats, so a night of tenths once
summed to 2.8e-17, not 0, and its pages and exports refused to open (found by a probe; ledger.models.money)."""
import datetime as dt
from decimal import Decimal
from io import StringIO

from django.core.management import call_command
from django.db.models import DecimalField, Q, Value
from django.db.models.functions import Coalesce
from django.urls import reverse

from ledger.models import MoneySum, SeatResult
from ledger.selectors import nights as selectors
from ledger.selectors import stats
from ledger.services import nights as services

from tests.conftest import api_client
from tests.factories import page_client, post_json as post
from tests.hand_helpers import w, win

# 王五 (seat 2) wins 平胡 and 对对胡 on 张三's discards, then pays 李四's 对对胡 and 平胡: +0.1 +0.2 -0.2 -0.1 at 0.1.
TENTHS = [{"events": [win(0, w(2, pattern))], "exhausted": True} for pattern in ("ping_hu", "dui_dui_hu")] + \
         [{"events": [win(2, w(1, pattern))], "exhausted": True} for pattern in ("dui_dui_hu", "ping_hu")]


def test_a_night_of_tenths_sums_to_exactly_zero_and_every_page_and_export_opens(owner, players):
    night = services.night_create(owner=owner, title="一毛", date=dt.date(2026, 12, 5), base=Decimal("0.1"),
                                  players=players, first_dealer=0)
    for entry in TENTHS:
        services.hand_record(night=night, by=owner, entry=entry)
    nets = selectors.night_nets(night)
    assert {p.name: nets[p.pk] for p in players} == {"张三": Decimal("-0.3"), "李四": Decimal("0.3"),
                                                     "王五": Decimal(0), "赵六": Decimal(0)}
    assert sum(nets.values()) == 0 and all(n.as_tuple().exponent == -4 for n in nets.values())
    client = api_client(owner)
    totals = client.get(reverse("api-totals", args=[night.pk]))
    assert totals.status_code == 200, totals.content
    assert {t["player"]: t["amount"] for t in totals.json()["totals"]}["王五"] == "0"
    settlement = client.get(reverse("api-settlement", args=[night.pk]))
    assert settlement.status_code == 200 and [(t["from"], t["to"], t["amount"]) for t in
                                              settlement.json()["transfers"]] == [("张三", "李四", "0.3")]
    for name in ("api-night", "api-hands-csv", "api-payments-csv", "api-report-txt", "api-backup"):
        assert client.get(reverse(name, args=[night.pk])).status_code == 200, name
    assert page_client(owner).get(f"/nights/{night.pk}/").status_code == 200
    out = StringIO()
    call_command("check_ledger", stdout=out)
    assert "ledger OK" in out.getvalue()


def test_adjustments_of_tenths_cancel_exactly(night, owner):
    client = api_client(owner)
    for payer, payee, amount in ((0, 1, "0.1"), (0, 1, "0.2"), (1, 0, "0.3")):
        made = post(client, reverse("api-adjustments", args=[night.pk]),
                    {"kind": "transfer", "from": payer, "to": payee, "amount": amount, "reason": "找零"})
        assert made.status_code == 201, made.content
    assert set(selectors.night_adjustment_nets(night).values()) == {Decimal(0)}
    totals = client.get(reverse("api-totals", args=[night.pk])).json()["totals"]
    assert {t["amount"] for t in totals} == {"0"}
    assert client.get(reverse("api-settlement", args=[night.pk])).json()["transfers"] == []
    assert all(line.hands_net == 0 and line.adjustments == 0 for line in stats.group_leaderboard(night.group, None, None))


def test_money_sum_adds_exactly_what_sum_adds_in_floats_on_sqlite(recorded):
    """The aggregate itself: 0.1 + 0.2 - 0.3 + 0 is 0 (SQLite's SUM gives 5.55e-17); no rows is None, as Sum."""
    rows = SeatResult.objects.filter(revision__hand__night=recorded).order_by("seat")
    for row, net in zip(rows, ("0.1", "0.2", "-0.3", "0")):
        SeatResult.objects.filter(pk=row.pk).update(net=Decimal(net))
    assert rows.aggregate(total=MoneySum("net"))["total"] == 0
    assert SeatResult.objects.filter(pk=-1).aggregate(total=MoneySum("net"))["total"] is None
    assert SeatResult.objects.filter(pk=-1).aggregate(total=MoneySum("net", default=0))["total"] == 0
    positive = rows.aggregate(total=MoneySum("net", filter=Q(net__gt=0)))["total"]
    assert positive == Decimal("0.3")


def test_money_sum_reads_as_an_amount_inside_other_expressions(recorded):
    """Wrapped in Coalesce, given a default over real rows, or subtracted from another sum, it is still an amount
    (scaled back in the SQL: a converter on the sum alone once left these reading ten-thousandths, ×10,000)."""
    rows = SeatResult.objects.filter(revision__hand__night=recorded).order_by("seat")
    for row, net in zip(rows, ("0.1", "0.2", "-0.3", "0.05")):
        SeatResult.objects.filter(pk=row.pk).update(net=Decimal(net))
    got = rows.aggregate(plain=MoneySum("net"), default=MoneySum("net", default=0),
                         coalesced=Coalesce(MoneySum("net"), Value(Decimal(0)), output_field=DecimalField()),
                         won=MoneySum("net", filter=Q(net__gt=0)), lost=MoneySum("net", filter=Q(net__lt=0)))
    assert got == {"plain": Decimal("0.05"), "default": Decimal("0.05"), "coalesced": Decimal("0.05"),
                   "won": Decimal("0.35"), "lost": Decimal("-0.3")}
    spread = rows.aggregate(spread=MoneySum("net", filter=Q(net__gt=0)) - MoneySum("net", filter=Q(net__lt=0)))
    assert spread["spread"] == Decimal("0.65")


def tenths_night(owner, players, title, entries):
    night = services.night_create(owner=owner, title=title, date=dt.date(2026, 12, 5), base=Decimal("0.1"),
                                  players=players, first_dealer=0)
    for entry in entries:
        services.hand_record(night=night, by=owner, entry=entry)
    return services.night_close(night=night, by=owner)


def test_the_leaderboard_and_the_running_balance_add_tenths_over_several_nights_exactly(owner, players):
    """李四 wins 0.1 on one night, 0.2 on the next, loses 0.3 on the third: one row per night, so the leaderboard
    and the group's running balance add several rows of tenths (SQLite's SUM gave 5.55e-17 and 0.300000000000000)."""
    nights = [tenths_night(owner, players, title, entries) for title, entries in (
        ("一", [TENTHS[0] | {"events": [win(0, w(1, "ping_hu"))]}]),
        ("二", [TENTHS[0] | {"events": [win(0, w(1, "dui_dui_hu"))]}]),
        ("三", [{"events": [win(1, w(0, pattern))], "exhausted": True} for pattern in ("dui_dui_hu", "ping_hu")]))]
    group = nights[0].group
    line = {s.name: s for s in stats.group_leaderboard(group, None, None)}["李四"]
    assert (line.hands_net, line.nights) == (0, 3)
    assert line.hands_net.as_tuple().exponent == -4
    from ledger.selectors import evenings
    from ledger.services import evenings as paying
    for night in nights[:2]:
        paying.settle_night(by=owner, night=night)
    balance = {b.who.name: b.amount for b in evenings.group_balance(group)}
    assert balance == {"李四": Decimal("0.3"), "张三": Decimal("-0.3")}
    assert {a.as_tuple().exponent for a in balance.values()} == {-4}
    board = page_client(owner).get(f"/groups/{group.pk}/")
    assert board.status_code == 200 and "0.300000" not in board.content.decode()


def test_a_night_line_corrected_in_the_database_holds_exact_tenths(owner, players):
    """A correction adds and takes away seat results in the database (standings.add_hand); on SQLite that was float
    arithmetic, which drifted (0.3 - 0.1 stored as 0.19999999999999998): it is rounded to 4 places each time."""
    from django.db import connection
    from ledger.models import Hand, NightStanding
    night = services.night_create(owner=owner, title="改一手", date=dt.date(2026, 12, 5), base=Decimal("0.1"),
                                  players=players, first_dealer=0)
    for pattern in ("ping_hu", "dui_dui_hu"):  # 李四 +0.1, then +0.2: 0.3 kept
        services.hand_record(night=night, by=owner, entry={"events": [win(0, w(1, pattern))], "exhausted": True})
    second = Hand.objects.get(night=night, number=2)
    services.hand_correct(hand=second, by=owner, reason="记错了", entry={"events": [win(0, w(1, "ping_hu"))],
                                                                       "exhausted": True})
    line = NightStanding.objects.get(night=night, player=players[1])
    with connection.cursor() as cursor:  # the stored value itself, as the database holds it
        cursor.execute("SELECT hands_net FROM ledger_nightstanding WHERE id = %s", [line.pk])
        stored = cursor.fetchone()[0]
    assert line.hands_net == Decimal("0.2") and Decimal(str(stored)) == Decimal("0.2")
